// The web server's place in the running bridge (App): the memory the pollers publish through (states
// and calendar feeds alike), and the server itself. App loads this module only when http.port is
// not 0, so a bridge without the web server never loads it (nor the iCalendar library).
import { WebMemory, type WebMemoryOptions } from './memory.js';
import { WebService, type WebServiceOptions } from './service.js';

export const createMemory = (options: WebMemoryOptions): WebMemory => new WebMemory(options);
export const createService = (options: WebServiceOptions): WebService => new WebService(options);
