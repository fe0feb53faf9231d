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
  const route = world.messaging.bootstrapRoute;
  if (route === 'auth') return redirect(`${world.urls().auth_url}${MESSAGES_SSO}?client_id=46`, { login: live.login });
  if (route === 'outside') return redirect('http://127.0.0.9:9/wiadomosci', { login: live.login });
  const ticket = world.messaging.issueTicket(live.login);
  return redirect(`${messages_url}/bootstrap?ticket=${ticket}`, { login: live.login });
}

/** The authorization host's hop of the bootstrap chain (live-notes 15). */
export const MESSAGES_SSO = '/OAuth/Authorization/Messages';

/** On the authorization host: a login it knows is sent on to the messaging host with a ticket. */
export function messagesSso(world: World, login: string | undefined): Reply {
  if (!login) return redirect(`${world.urls().auth_url}/OAuth/Authorization?client_id=46&response_type=code&scope=mydata`);
  const ticket = world.messaging.issueTicket(login);
  return redirect(`${world.urls().messages_url}/bootstrap?ticket=${ticket}`, { login });
}
