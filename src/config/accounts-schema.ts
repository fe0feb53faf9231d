// The `accounts` entries of the configuration: a `login` entry (the register road, one child) or an
// `email` entry (the family road, every linked child or those listed), each with what a child takes
// (its id, downloads, fixed messages, write_messages), and the mistakes each is refused for by its key.
import * as z from 'zod';

/**
 * The register login (like 1234567u), never the family portal's e-mail: parents confuse the two
 * (spec live-notes 4); an e-mail belongs under `email:`, the family road (interface 9.1).
 */
const login = z
  .string()
  .min(1)
  .refine((v) => !v.includes('@'), {
    message:
      'this is an e-mail address (an account of the family portal, Konto LIBRUS): put it under email: instead of login: for the family road, ' +
      'or use the register login of the parent account, digits ending in u like 1234567u, with its own password',
  });

/** The family portal's e-mail (a "Konto LIBRUS"), never a register login. */
const email = z
  .string()
  .regex(
    /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
    "an e-mail address like rodzic@example.com (the family portal's login); a register login like 1234567u goes under login:",
  );

const slug = z.string().regex(/^[a-z0-9_]+$/, 'only lowercase letters, digits and _');

const recipient = z.union([
  z.literal('class_tutor'),
  z.strictObject({ teacher: z.string().min(1) }),
  z.strictObject({ account_id: z.string().min(1) }),
]);

const fixedMessage = z.strictObject({
  id: slug,
  name: z.string().min(1),
  to: recipient,
  topic: z.string().min(1),
  body: z.string().min(1),
});

/** What a child of the bridge takes, under its own `login` entry or in an `email` entry's `children`. */
const childOptions = {
  id: slug.refine((v) => v !== 'bridge', '"bridge" is reserved for the bridge itself').optional(),
  downloads: z.boolean().default(false),
  messages: z.array(fixedMessage).default([]),
  /** Home Assistant and MQTT may reply and write free text in the parent's name (interface 7.1). */
  write_messages: z.boolean({ error: 'true or false' }).default(false),
};

const secret = { password: z.string().min(1).optional(), password_file: z.string().min(1).optional() };

/** One password or one password file; a child's fixed messages with unique ids. */
function checkSecret(a: { password?: string; password_file?: string }, ctx: z.RefinementCtx): void {
  if (a.password === undefined && a.password_file === undefined) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'required (or password_file)' });
  }
  if (a.password !== undefined && a.password_file !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['password_file'], message: 'give password or password_file, not both' });
  }
}

/** The index of an earlier item with this key (a repeat), or undefined for the first, which `seen` then keeps at `index`. */
export function seenAt(seen: Map<string, number>, key: string, index: number): number | undefined {
  const first = seen.get(key);
  if (first === undefined) seen.set(key, index);
  return first;
}

function checkMessages(messages: { id: string }[], ctx: z.RefinementCtx, at: (string | number)[] = []): void {
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    if (seen.has(m.id)) ctx.addIssue({ code: 'custom', path: [...at, 'messages', i, 'id'], message: `duplicate id "${m.id}"` });
    seen.add(m.id);
  });
}

/** The register road: one child's register login (spec 5.2). */
const loginAccount = z.strictObject({ login, ...secret, ...childOptions }).superRefine((a, ctx) => {
  checkSecret(a, ctx);
  checkMessages(a.messages, ctx);
});

/** A linked child picked from an e-mail account, with its id and what it may do. */
const familyChild = z.strictObject({ login, ...childOptions }).superRefine((c, ctx) => checkMessages(c.messages, ctx));

/** The family road (live-notes 21-27): the family portal's e-mail, every linked child or those listed. */
const familyAccount = z
  .strictObject({
    email,
    ...secret,
    children: z.array(familyChild).min(1, 'list at least one child, or leave children: out for every linked child').optional(),
    /** Without `children:`, for every linked child: as a login entry's (the app's form has no list of children). */
    downloads: z.boolean({ error: 'true or false' }).optional(),
    write_messages: z.boolean({ error: 'true or false' }).optional(),
  })
  .superRefine((a, ctx) => {
    checkSecret(a, ctx);
    const seen = new Map<string, number>();
    a.children?.forEach((c, i) => {
      const first = seenAt(seen, c.login.trim().toLowerCase(), i);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: ['children', i, 'login'], message: `the same login as children[${first}].login; list each child once` });
    });
  });

/**
 * An entry of `accounts`: `login` (the register road) or `email` (the family road), never both; the
 * entry is read by the schema of its road, so a mistake is named by the key it is about.
 */
export const account = z.unknown().transform((raw, ctx): z.output<typeof loginAccount> | z.output<typeof familyAccount> => {
  const entry = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  if (entry && 'login' in entry && 'email' in entry) {
    ctx.addIssue({
      code: 'custom',
      path: ['email'],
      message: 'give login (the register road) or email (the family road), not both: one entry per road',
    });
    return z.NEVER;
  }
  const parsed = (entry && 'email' in entry ? familyAccount : loginAccount).safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: issue.path } as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
});

/** A `login` entry: one child on the register road. */
export type AccountConfig = z.output<typeof loginAccount>;
/** An `email` entry: the family road to every linked child (or those of `children`). */
export type FamilyAccountConfig = z.output<typeof familyAccount>;
export type FamilyChildConfig = z.output<typeof familyChild>;
/** An entry of `accounts` as written: a login entry or an e-mail entry. */
export type LoginAccountInput = z.input<typeof loginAccount>;
export type AccountInput = LoginAccountInput | z.input<typeof familyAccount>;
