// The shapes of one HTTP exchange (the request asked, the head seen first, the answer kept): a leaf that the
// client (http.ts) and what reads its answers (http-answers.ts) both import, so neither needs the other's types.

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /** Stops the request, its body included, when it aborts (a download's deadline). */
  signal?: AbortSignal;
  /**
   * Most bytes of body held in memory (default http.ts's MAX_BODY_BYTES); a larger answer is refused as it
   * streams in (UnexpectedResponseError, code TooLarge).
   */
  maxBytes?: number;
  /**
   * Asked once the status and headers are in: a target makes the body stream into that file instead
   * of memory (a download), under the target's own limit. Undefined keeps the body in memory.
   */
  toFile?: (head: ResponseHead) => FileTarget | undefined;
}

export interface ResponseHead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface FileTarget {
  path: string;
  maxBytes: number;
}

export interface HttpResponse {
  status: number;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body; empty when it went to a file (see file). */
  body: Buffer;
  /** The file the body was streamed to (HttpRequest.toFile), with its size. */
  file?: { path: string; size: number };
  /** The Location header resolved against the request URL, if any. */
  location: string | undefined;
  text(): string;
}
