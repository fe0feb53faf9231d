// `/health` (interface 6.5, 7.4): open to anyone, for Docker's HEALTHCHECK and monitoring. 200 while the
// bridge is connected to the MQTT broker, else 503. Without the token it says only ok, degraded or down
// and how many children are online: the children's ids (often their first names) only with the token.
import type { Route, WebData } from './types.js';

export function healthRoute(data: WebData): Route {
  return (req) => {
    if (req.segments.length !== 1 || req.segments[0] !== 'health') return undefined;
    const children = data.children();
    const online = children.filter((c) => c.online).length;
    const healthy = data.healthy();
    // ok: connected and every child online; degraded: connected, some child not; down: no broker.
    const status = !healthy ? 'down' : online < children.length ? 'degraded' : 'ok';
    const body: Record<string, unknown> = { status, children: children.length, online };
    if (!healthy) body.error = 'not connected to the MQTT broker';
    if (req.trusted) body.by_child = Object.fromEntries(children.map((c) => [c.id, { online: c.online }]));
    return {
      status: healthy ? 200 : 503,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
      body: JSON.stringify(body),
    };
  };
}
