// What the pass runner hands to the bridge for one entity: its state (null is published as "None") and
// optional attributes.

export interface EntityState {
  state: string | null;
  attributes?: Record<string, unknown>;
}

declare const fromDeclarations: unique symbol;

/**
 * A feature's states by entity key, made only from its entities' declarations (features/kit/contract.ts
 * statesOf, each declaration's `state:` given the feature's view): a record written by hand does not compile
 * where a feature hands states over, so a key is written once, where its entity is declared.
 */
export type DeclaredStates = { readonly [key: string]: EntityState } & { readonly [fromDeclarations]: true };

/**
 * A new item for an event entity: the event type, whose it is (`child`: the child's id, `child_name`: the first
 * name the board calls the child by, so that one automation serves every child), plus what the automation needs.
 */
export interface EventPayload {
  event_type: string;
  child: string;
  child_name: string;
  [key: string]: unknown;
}
