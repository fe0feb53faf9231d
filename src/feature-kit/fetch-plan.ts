// A feature's fetch plan as data: the resources it reads, by name, each with its endpoint, schema and
// cadence. The answers come back by the same names (never by their position in a list).
import type { z } from 'zod';
import type { ResourceCache, ResourceSpec } from './resources.js';

/**
 * Any resource's spec: a spec's `list` reads its own schema's answer, so it is taken as a function of
 * anything here (each answer keeps its own type in Fetched).
 */
type PlanEntry = Omit<ResourceSpec<z.ZodType>, 'list'> & { list?: (value: never) => readonly unknown[] | undefined };

/** Named resources; an entry left undefined is not fetched this time (e.g. a module the school lacks). */
export type FetchPlan = Record<string, PlanEntry | undefined>;

export type Fetched<P extends FetchPlan> = {
  [K in keyof P]: NonNullable<P[K]> extends ResourceSpec<infer S> ? z.output<S> | undefined : undefined;
};

/** Fetches every resource of the plan at once (each through the cache and its age). */
export async function fetchAll<P extends FetchPlan>(cache: ResourceCache, plan: P): Promise<Fetched<P>> {
  const names = Object.keys(plan);
  const values = await Promise.all(
    names.map((name) => (plan[name] ? cache.get(plan[name] as ResourceSpec<z.ZodType>) : undefined)),
  );
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as Fetched<P>;
}

/** Awaits named work at once, as Promise.all does, and answers by the same names (for work that is not one resource). */
export async function allNamed<T extends Record<string, unknown>>(named: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const names = Object.keys(named);
  const values = await Promise.all(names.map((name) => named[name]));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as { [K in keyof T]: Awaited<T[K]> };
}
