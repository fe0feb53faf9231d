// Types of scripts/portal-fields.mjs for the test that imports it.
export const PAGE: string;
/** The spec's path, where it is found (PORTAL_SPEC, or the shared folder beside the checkout). */
export function specPath(): string | undefined;
export function namedInSpec(spec: string): Map<string, string[]>;
export function namedInPage(page: string): Map<string, string[]>;
export function portalFields(named: Map<string, string[]>): { rows: string[]; problems: string[] };
export function portalFieldsPage(named: Map<string, string[]>): string;
