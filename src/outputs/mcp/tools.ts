// The tools the MCP server offers (interface 16.4): their fixed names, the descriptions a language model
// chooses by, and input schemas Home Assistant can convert (one plain object of strings, integers, booleans
// and enums, no nesting). Plain data: the server lists them, `check` and the docs read them.
import { openMessageButton } from '../../features/opened-message/opened-message.js';

/** open_message runs the open_message command (the button's): one name, the feature's. */
export const OPEN_COMMAND: { key: string; payload: string } = openMessageButton.command ?? { key: '', payload: '' };

/** One property of a tool's input: a string (maybe one of a few), an integer in a range, or a boolean. */
export type ToolProperty =
  | { type: 'string'; description: string; enum?: readonly string[] }
  | { type: 'integer'; description: string; minimum?: number; maximum?: number }
  | { type: 'boolean'; description: string };

export interface ToolDef {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, ToolProperty>; required?: readonly string[] };
  /** Read-only: answers from what the bridge holds, changes nothing in the portal. */
  readOnly: boolean;
}

const CHILD: ToolProperty = {
  type: 'string',
  description: "The child's id or first name, as the bridge lists it; may be left out when the family has one child.",
};

export const UPCOMING_DAYS_MAX = 14;
export const TOPIC_DAYS_MAX = 14;

export const TOOLS = [
  {
    name: 'get_day',
    description:
      "A child's school day: the lessons with their times, rooms and changes (cancelled lessons, substitutions, room changes, moved lessons), when lessons start and end, homework due and tests that day. Use for questions like 'what does Zofia have tomorrow?'. The bridge knows today and the next school day.",
    inputSchema: {
      type: 'object',
      properties: {
        child: CHILD,
        date: { type: 'string', description: "The day: 'today', 'tomorrow' (the next school day) or a date as YYYY-MM-DD. Default 'today'." },
      },
    },
    readOnly: true,
  },
  {
    name: 'get_grades',
    description:
      "A child's grades: the recent grades with their teacher, the teacher's comment, category and weight; each subject's average, the grade it is heading for (forecast), proposed and final term grades, descriptive and text grades. Use for 'how is maths going?'. Give a subject to see all its grades this semester.",
    inputSchema: {
      type: 'object',
      properties: {
        child: CHILD,
        subject: { type: 'string', description: "A subject's name or its beginning, e.g. 'matematyka'; leave out for all subjects." },
      },
    },
    readOnly: true,
  },
  {
    name: 'get_upcoming',
    description:
      'What is ahead for a child: tests and quizzes, homework to hand in, school trips, parent-teacher meetings and other events, and days off, within the next days (at most 14).',
    inputSchema: {
      type: 'object',
      properties: {
        child: CHILD,
        days: { type: 'integer', description: 'How many days ahead, 1 to 14. Default 14.', minimum: 1, maximum: UPCOMING_DAYS_MAX },
      },
    },
    readOnly: true,
  },
  {
    name: 'get_lesson_topics',
    description:
      "The topics of a child's recent lessons, by subject, and the lessons missed through absence with what was taught in them (what to catch up), over the last days (at most 14).",
    inputSchema: {
      type: 'object',
      properties: {
        child: CHILD,
        subject: { type: 'string', description: "A subject's name or its beginning; leave out for all subjects." },
        days: { type: 'integer', description: 'How many days back, 1 to 14. Default 14.', minimum: 1, maximum: TOPIC_DAYS_MAX },
      },
    },
    readOnly: true,
  },
  {
    name: 'get_attendance',
    description: "A child's attendance this semester: the share of lessons attended, unexcused and excused absences, late arrivals, by subject.",
    inputSchema: { type: 'object', properties: { child: CHILD } },
    readOnly: true,
  },
  {
    name: 'get_behaviour',
    description: "A child's behaviour: the behaviour grade (or points) and its proposal, and the newest teacher's note (positive or negative).",
    inputSchema: { type: 'object', properties: { child: CHILD } },
    readOnly: true,
  },
  {
    name: 'get_school',
    description:
      "A child's school: its name, address, head teacher, the secretariat's e-mail and phone, the class and its tutor, the child's register number, the school year's dates, the bell times and today's lucky number.",
    inputSchema: { type: 'object', properties: { child: CHILD } },
    readOnly: true,
  },
  {
    name: 'get_messages',
    description:
      "A child's unread messages from teachers and the school (sender, topic, date, id) and unread announcements, with previews; the message opened last. To read one whole, use open_message with its id.",
    inputSchema: { type: 'object', properties: { child: CHILD } },
    readOnly: true,
  },
  {
    name: OPEN_COMMAND.key,
    description:
      "Opens one of a child's messages and returns its whole text. The register then marks it read, as when a parent opens it. Use the id that get_messages lists, or 'newest'.",
    inputSchema: {
      type: 'object',
      properties: { child: CHILD, id: { type: 'string', description: "The message's id as get_messages lists it, or 'newest'." } },
      required: ['id'],
    },
    readOnly: false,
  },
  {
    name: 'send_message',
    description:
      "Writes a message to one of a child's teachers through the register. Two steps: call it with to, subject and text to get a preview and a confirmation code; only after the parent agreed to the preview, call it again with just confirm set to that code to send it. Nothing is sent without the confirmation; a code works once, for 5 minutes.",
    inputSchema: {
      type: 'object',
      properties: {
        child: CHILD,
        to: {
          type: 'string',
          description:
            "The teacher: their full name ('Piotr Wiśniewski'), a recipient as the bridge's Recipient list names it ('Matematyka – Piotr Wiśniewski'), or 'class_tutor' for the class tutor.",
        },
        subject: { type: 'string', description: "The message's subject line." },
        text: { type: 'string', description: "The message's text, as the parent wants it sent." },
        confirm: { type: 'string', description: 'The confirmation code from the preview: sends the message previewed.' },
      },
    },
    readOnly: false,
  },
] as const satisfies readonly ToolDef[];

/** A tool as tools/list gives it (the MCP shape: name, description, inputSchema, annotations). */
export function listedTool(tool: ToolDef) {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: !tool.readOnly },
  };
}
