/** The MCP server's tools as interface 16.4 names them, in the order the server lists them (send_message only with write_messages). */
export const TOOL_NAMES = [
  'get_day',
  'get_grades',
  'get_upcoming',
  'get_lesson_topics',
  'get_attendance',
  'get_behaviour',
  'get_school',
  'get_messages',
  'open_message',
  'send_message',
];
