// Types of scripts/demo.mjs for the tests that import it.
/** Why the compiled code under root must be built again, or undefined when it is up to date. */
export function needsBuild(root: string): string | undefined;
