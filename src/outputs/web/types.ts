// What the built-in web server (interface 6.5) and its pages agree on: a request the server has
// already let in, the answer a route gives, and what the bridge holds for the pages (never the portal).
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { EntityState } from '../../engine/state.js';
import type { Language } from '../../config/language.js';
import type { CalendarFeedName } from '../../rules/calendar-feeds.js';
import type { AccessVia } from './request.js';

/**
 * A request the server let in: GET or HEAD, with the token or through Home Assistant's ingress,
 * its path split and decoded (no empty, `.` or `..` segment ever reaches a route).
 */
export interface WebRequest {
  method: 'GET' | 'HEAD';
  /** e.g. `['calendar', 'ania', 'lessons.ics']`; `[]` for `/`. */
  segments: readonly string[];
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The path prefix Home Assistant's ingress serves us under (`X-Ingress-Path`), '' when direct. */
  ingressPath: string;
  /** True when it came with the token, the cookie, a calendar feed's key or through ingress; false for an open path (`/health`) without. */
  trusted: boolean;
  /**
   * How it was let in (request.ts decideAccess): only a page asked for with `?token=` or through
   * ingress may show what opens more than itself (the calendar feeds' keys); the cookie alone shows none.
   */
  via: AccessVia;
}

/** A route's answer. The server adds the security headers, HEAD handling and conditional GET. */
export interface WebResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /**
   * When the content last changed (ms since the epoch): sent as Last-Modified and honoured in
   * If-Modified-Since. The server derives the ETag from the body.
   */
  modifiedAt?: number;
  /** A long-lived answer (server-sent events): the route writes to the response until it closes. */
  stream?: (res: ServerResponse) => void;
  /** A file on disk, streamed as the body (a saved attachment); never held in memory, never an event stream. */
  file?: string;
  /** An answer made asynchronously from the bridge's memory (the diagnostics, the metrics); still never from the portal. */
  later?: () => Promise<WebResponse>;
}

/** One child as the pages see it: what the bridge last published for it, from memory. */
export interface ChildView {
  id: string;
  /** The device's name (the child's name), null before the first identity. */
  name: string | null;
  /** The device's model line (`Klasa 4b`), null before the first identity. */
  model: string | null;
  online: boolean;
  /** The last published state of each entity key (`timetable_today`, `unread_messages`, ...). */
  states: ReadonlyMap<string, EntityState>;
  /** When any of the child's states last changed (ms since the epoch), 0 before the first. */
  changedAt: number;
  /**
   * The calendar feeds the child has, as its device declares them (calendarFeeds' offeredCalendarFeeds); all of them
   * before the device is known.
   */
  calendarFeeds?: readonly CalendarFeedName[];
}

/** What the bridge gives the web server; everything is read from memory. */
export interface WebData {
  language: Language;
  children(): readonly ChildView[];
  /** Called after any child's state changes (a burst of changes may call it many times). Returns an unsubscribe. */
  onChange(listener: () => void): () => void;
  /** A child's calendar feed; null while nothing is known yet (503), undefined for an unknown child or a calendar feed it does not have (404). */
  calendarFeedSource(child: string, name: CalendarFeedName): CalendarFeedSource | null | undefined;
  /** True while the bridge is connected to the broker (`/health`). */
  healthy(): boolean;
  now(): number;
}

/** A calendar feed's body and when its content last changed. */
export interface CalendarFeedSource {
  /** The iCalendar text (RFC 5545), UTF-8. */
  body: Buffer;
  modifiedAt: number;
}

/**
 * One route: answers the requests it knows, undefined for the others (the next route is asked; when
 * none answers, 404). Routes are plain functions of what the bridge holds: they never ask the portal.
 */
export type Route = (req: WebRequest) => WebResponse | undefined;
