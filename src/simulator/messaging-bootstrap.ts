// {base_url}/wiadomosci3 on the portal host: the bootstrap of the messaging session (spec 5.4.1). A
// live session is sent on to the messaging host with a one-time ticket, which sets that host's
// cookie; a school without the module, or a session the portal knows but which has died, gets the
// "Brak dostępu" page (spec 5.4.3 notes that a dead main session can look like this); no session
// at all is sent to the login page as every web page does.
import { html, page, redirect } from './reply.js';
import type { Call, Reply } from './types.js';
import type { World } from './world.js';

export function messagingBootstrap(world: World, call: Call): Reply {
  const sid = call.cookies.get('DZIENNIKSID');
  const known = world.sessions.findByWebSid(sid);
  const { base_url, messages_url } = world.urls();
  if (!known) return redirect(`${base_url}/loguj/portalRodzina`);
  const live = world.sessions.liveByWebSid(sid);
  if (!live || world.messaging.moduleAbsent(known.login)) {
    return html(200, page('Wiadomości', '<div class="container-message"><h2>Brak dostępu</h2><p>Moduł Wiadomości nie jest dostępny.</p></div>'), {
      login: known.login,
    });
  }
  const ticket = world.messaging.issueTicket(live.login);
  return redirect(`${messages_url}/bootstrap?ticket=${ticket}`, { login: live.login });
}
