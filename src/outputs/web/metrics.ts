// The opt-in metrics (`http.metrics: true`, interface 9.3) in Prometheus' text format, through
// prom-client on a registry of their own: portal requests by child, resource (ids masked) and status,
// password logins by outcome, a pass's duration as a histogram, MQTT publishes, and the process's RSS
// and heap. Fed by the account runners' figures (FiguresSink) and read from the MQTT bridge when
// scraped; the web server's output (output.ts) loads this module only when the option is on, so a bridge without it
// never loads prom-client.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FiguresSink } from '../../features/status/figures.js';

/** A pass's duration in seconds: a fast tier takes well under a second, a start's first pass can take a minute. */
const PASS_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160];

export interface MetricsSources {
  /** MQTT messages the bridge has handed to the broker since it started. */
  mqttPublishes: () => number;
}

export class Metrics implements FiguresSink {
  private readonly registry = new Registry();
  private readonly requests = this.counter(
    'portal_requests_total',
    'Requests to the portal by child, resource (ids masked) and status (ok, an HTTP status and code, no answer)',
    ['child', 'resource', 'status'],
  );
  private readonly logins = this.counter('logins_total', 'Password logins by child and outcome (ok or a problem reason)', ['child', 'outcome']);
  private readonly missed = this.counter(
    'feed_missed_total',
    "Changes a slow safety read found that the portal's change feed never named, by child and resource",
    ['child', 'resource'],
  );
  private readonly passes = new Histogram({
    name: 'dziennik2mqtt_poll_duration_seconds',
    help: "A pass's duration by child",
    labelNames: ['child'],
    buckets: PASS_BUCKETS,
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    new Counter({
      name: 'dziennik2mqtt_mqtt_publishes_total',
      help: 'MQTT messages handed to the broker (states, discovery, events)',
      registers,
      collect() {
        this.reset();
        this.inc(sources.mqttPublishes());
      },
    });
    // The process's RSS and heap, read when scraped.
    const sizes: [name: string, help: string, read: () => number][] = [
      ['process_resident_memory_bytes', 'Resident set size (RSS), in bytes', () => process.memoryUsage.rss()],
      ['nodejs_heap_size_used_bytes', 'V8 heap in use, in bytes', () => process.memoryUsage().heapUsed],
      ['nodejs_heap_size_total_bytes', 'V8 heap allocated, in bytes', () => process.memoryUsage().heapTotal],
    ];
    for (const [name, help, read] of sizes) {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    }
  }

  private counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name: `dziennik2mqtt_${name}`, help, labelNames, registers: [this.registry] });
  }

  answered(child: string, resource: string, status: string): void {
    this.requests.inc({ child, resource, status });
  }

  loggedIn(child: string, outcome: string): void {
    this.logins.inc({ child, outcome });
  }

  passed(child: string, ms: number): void {
    this.passes.observe({ child }, ms / 1000);
  }

  changeFeedMissed(child: string, resource: string): void {
    this.missed.inc({ child, resource });
  }

  /** The text a scrape gets, with its content type. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
