// How many connections the web server holds, from whom, and for how long: a flood from one address
// (70 idle sockets from a LAN device) takes its own share and no more, and a few busy neighbours that
// each fill their share cannot take every place either: when the server is full, a newcomer from an
// address holding fewer connections takes the place of an idle one (kept alive between two requests,
// or not yet sent a request) of the address holding the most. So /health, the board and the calendar feeds
// still answer everyone else, and the Supervisor's ingress proxy (all of Home Assistant's users
// behind one address) keeps room of its own. A connection over a limit is closed at once, before it
// can send anything; one that sends no request in time is closed too.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { plainAddress } from './request.js';
import type { Clock, Timer } from '../../util/clock.js';

export interface ConnectionLimits {
  /** All connections at once: each costs memory, and a family needs a few. */
  total: number;
  /** From any one address but the ingress proxy's (a browser opens at most 6 to one host). */
  perAddress: number;
  /** Of `total`, what the other addresses together never take while an ingress proxy is trusted. */
  ingressReserve: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = { total: 64, perAddress: 16, ingressReserve: 16 };

/** One open connection: whose, and whether an answer is under way on it. */
interface Held {
  socket: Socket;
  address: string;
  /** Requests received and not yet answered (an event stream stays busy while open). */
  busy: number;
  /** When it last became idle (opened, or its last answer ended): the longest idle goes first. */
  idleSince: number;
}

/** Counts the server's connections by address and closes those over the limits. */
export function limitConnections(server: Server, limits: ConnectionLimits, ingressAddress: string | undefined): void {
  const byAddress = new Map<string, number>();
  const held = new Map<Socket, Held>();
  let fromIngress = 0;
  let order = 0;
  // Without a trusted proxy nothing needs keeping for it.
  const othersMax = ingressAddress === undefined ? limits.total : limits.total - limits.ingressReserve;

  /**
   * An idle connection of the address holding the most (more than `than`), never the ingress
   * proxy's nor the newcomer's own; undefined when every such connection is answering.
   */
  const victim = (newcomer: string, than: number): Held | undefined => {
    let best: Held | undefined;
    let bestCount = than;
    for (const h of held.values()) {
      if (h.busy > 0 || h.address === newcomer || h.address === ingressAddress) continue;
      const count = byAddress.get(h.address) ?? 0;
      if (count > bestCount || (count === bestCount && best !== undefined && h.idleSince < best.idleSince)) {
        best = h;
        bestCount = count;
      }
    }
    return best;
  };

  /** Gives the place back (at once when evicted: the newcomer takes it before the close event). */
  const release = (entry: Held): void => {
    if (held.get(entry.socket) !== entry) return;
    held.delete(entry.socket);
    if (entry.address === ingressAddress) fromIngress--;
    const left = (byAddress.get(entry.address) ?? 1) - 1;
    if (left === 0) byAddress.delete(entry.address);
    else byAddress.set(entry.address, left);
  };

  server.on('connection', (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress ?? '');
    const ingress = address === ingressAddress;
    const mine = byAddress.get(address) ?? 0;
    if (!ingress && mine >= limits.perAddress) {
      socket.destroy();
      return;
    }
    if (ingress ? held.size >= limits.total : held.size - fromIngress >= othersMax) {
      // The ingress proxy takes any idle place of the others; another address only one of an address holding more than it.
      const freed = victim(address, ingress ? 0 : mine);
      if (freed === undefined) {
        socket.destroy();
        return;
      }
      release(freed);
      freed.socket.destroy();
    }
    const entry: Held = { socket, address, busy: 0, idleSince: order++ };
    held.set(socket, entry);
    if (ingress) fromIngress++;
    byAddress.set(address, mine + 1);
    socket.once('close', () => release(entry));
  });

  server.on('request', (req, res) => {
    const entry = held.get(req.socket);
    if (entry === undefined) return;
    entry.busy++;
    res.once('close', () => {
      entry.busy--;
      entry.idleSince = order++;
    });
  });
}

/**
 * Closes a connection that has no complete request header within `ms` of opening, or of its last
 * answer. Node's own headersTimeout cuts only a client that keeps sending (it is checked as bytes
 * arrive): a silent socket, or one stopped in the middle of its headers, would stay for good. The
 * bridge's clock runs it, so a test moves time instead of waiting. A long answer (an event stream)
 * is not timed: its request is complete.
 */
export function closeSilent(server: Server, clock: Clock, ms: number): void {
  const timers = new WeakMap<Socket, Timer>();
  const arm = (socket: Socket): void => {
    timers.get(socket)?.cancel();
    timers.set(
      socket,
      clock.setTimer(() => socket.destroy(), ms),
    );
  };
  server.on('connection', (socket: Socket) => {
    // Refused by limitConnections just before.
    if (socket.destroyed) return;
    arm(socket);
    socket.once('close', () => timers.get(socket)?.cancel());
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    timers.get(socket)?.cancel();
    res.once('finish', () => {
      if (!socket.destroyed) arm(socket);
    });
  });
}
