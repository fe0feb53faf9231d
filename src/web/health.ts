// `/health` (interface 6.5): open to anyone, for Docker's HEALTHCHECK and monitoring. 200 while the
// bridge is connected to the MQTT broker, else 503; says per child only whether it is online.
import type { Route, WebData } from './types.js';

export function healthRoute(data: WebData): Route {
  return (req) => {
    if (req.segments.length !== 1 || req.segments[0] !== 'health') return undefined;
    const children = Object.fromEntries(data.children().map((c) => [c.id, { online: c.online }]));
    const healthy = data.healthy();
    const body = healthy
      ? { status: 'ok', children }
      : { status: 'error', error: 'not connected to the MQTT broker', children };
    return {
      status: healthy ? 200 : 503,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
      body: JSON.stringify(body),
    };
  };
}
