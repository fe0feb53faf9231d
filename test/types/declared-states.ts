// A state sits on its entity's declaration, checked by the typecheck (`npm run typecheck`, and `npm test`'s checks),
// never run: a feature hands over only the states `statesOf` makes of its declarations, so an entity's key is
// written once, where it is declared. Every `@ts-expect-error` below fails the typecheck when its line compiles:
// a record of states written by hand, a view that lacks what a declaration reads, a state with an attribute of
// another type than the one declared. These replace test/unit/features/entity-keys.test.ts, which counted the
// source files that spelt each key.
import { statesOf, type PublishedAs } from '../../src/features/kit/contract.js';
import { sensor } from '../../src/features/kit/entities.js';
import { shape } from '../../src/features/kit/contract.js';
import { renderUpcomingTests, upcomingTestsEntity, type AgendaView } from '../../src/features/agenda/entities.js';
import type { SourceResult } from '../../src/engine/source.js';
import type { CommandAccount } from '../../src/features/feature.js';

declare const view: AgendaView;

// The agenda's states, by its declarations: the key is upcoming_tests's own.
export const declared: SourceResult = { states: statesOf([upcomingTestsEntity], view) };
export const byKey = statesOf([upcomingTestsEntity], view).upcoming_tests?.attributes.items;

export const byHand: SourceResult = {
  // @ts-expect-error a state under a key written again by hand is no declaration's
  states: { upcoming_tests: renderUpcomingTests(view.upcoming) },
};

export function command(account: CommandAccount): void {
  account.publishStates(statesOf([upcomingTestsEntity], view));
  // @ts-expect-error a command publishes its feature's states as the declarations make them, too
  account.publishStates({ upcoming_tests: { state: '1' } });
}

// @ts-expect-error the view handed to statesOf must hold what each declaration reads (here none of the agenda's)
export const wrongView = statesOf([upcomingTestsEntity], { due: null });

type Facts = { count: number };
export const counted = sensor(
  'counted',
  { en: 'Counted', pl: 'Policzone', uk: 'Пораховані' },
  {
    attributes: shape<Facts>(),
    state: (n: number): PublishedAs<Facts> => ({ state: String(n), attributes: { count: n } }),
  },
);
export const miscounted = sensor(
  'miscounted',
  { en: 'Counted', pl: 'Policzone', uk: 'Пораховані' },
  {
    attributes: shape<Facts>(),
    // @ts-expect-error a declaration's state gives its attributes as `attributes:` declares them
    state: (n: number) => ({ state: String(n), attributes: { count: String(n) } }),
  },
);
