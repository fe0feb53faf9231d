// The benchmark's children: the two demo profiles of the simulator, taken in turn, or the profiles a run
// names (the demo family's three children: two pupils and the preschool child, `DEMO_FAMILY_PROFILES`).

/** A child fixture of the simulator: Ania (class 4b), Janek (class 1a), Zosia (a kindergarten group). */
export type BenchProfile = 'ania' | 'janek' | 'zosia';

/** The demo family's children in the simulator's order: two school children and the preschool child. */
export const DEMO_FAMILY_PROFILES: readonly BenchProfile[] = ['ania', 'janek', 'zosia'];

/** The index-th bench child: its login, password and profile (`profiles[index]`, else Ania and Janek in turn). */
export function benchLogin(index: number, profiles?: readonly BenchProfile[]): { login: string; password: string; profile: BenchProfile } {
  const profile = profiles?.[index] ?? (index % 2 === 0 ? 'ania' : 'janek');
  return { login: `${9_000_000 + index}u`, password: `bench-${index}`, profile };
}

/** The family road's account of the bench: one e-mail linking every bench child (live-notes 21-27). */
export const BENCH_FAMILY = { email: 'bench@example.com', password: 'bench-rodzina' };
