// What a client's error answer said, once. The SDK makes each error answer an McpError whose
// message is "MCP error <code>: " and the answer's text; a client built on the same SDK sends its
// own McpError's message, prefix included, so the text read back would carry the prefix twice.

/** "MCP error -32602: form has no field confirm" for an error answer, however many prefixes it came with; any other error's message. */
export function peerErrorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  if (err.name !== 'McpError' || typeof code !== 'number') return err.message;
  const prefix = `MCP error ${code}: `;
  let text = err.message;
  while (text.startsWith(prefix)) text = text.slice(prefix.length);
  return prefix + text;
}
