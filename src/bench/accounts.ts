// The benchmark's children: the two demo profiles of the simulator, taken in turn.

export function benchLogin(index: number): { login: string; password: string; profile: 'ania' | 'janek' } {
  const profile = index % 2 === 0 ? 'ania' : 'janek';
  return { login: `${9_000_000 + index}u`, password: `bench-${index}`, profile };
}

/** The family road's account of the bench: one e-mail linking every bench child (live-notes 21-27). */
export const BENCH_FAMILY = { email: 'bench@example.com', password: 'bench-rodzina' };
