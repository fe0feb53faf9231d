// A feature's fetch plan as data: the resources it reads, by name, each with its endpoint, schema and
// cadence. The answers come back by the same names (never by their position in a list).
import type { z } from 'zod';
import type { ResourceCache, ResourceSpec } from './resources.js';

/** Named resources; an entry left undefined is not fetched this time (e.g. a module the school lacks). */
export type FetchPlan = Record<string, ResourceSpec<z.ZodType> | undefined>;

export type Fetched<P extends FetchPlan> = {
  [K in keyof P]: P[K] extends ResourceSpec<infer S> ? z.output<S> | undefined : undefined;
};

/** Fetches every resource of the plan at once (each through the cache and its age). */
export async function fetchAll<P extends FetchPlan>(cache: ResourceCache, plan: P): Promise<Fetched<P>> {
  const names = Object.keys(plan);
  const values = await Promise.all(names.map((name) => (plan[name] ? cache.get(plan[name]) : undefined)));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as Fetched<P>;
}
