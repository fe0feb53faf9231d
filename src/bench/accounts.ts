// The benchmark's children: the two demo profiles of the simulator, taken in turn.

export function benchLogin(index: number): { login: string; password: string; profile: 'ania' | 'janek' } {
  const profile = index % 2 === 0 ? 'ania' : 'janek';
  return { login: `${9_000_000 + index}u`, password: `bench-${index}`, profile };
}
