// `socialpub help mcp`: the tools of the MCP server and how to add it to an assistant. Written
// out (not generated from src/mcp) so that help stays off the server's import graph; a unit test
// checks that it names every tool.

export const MCP_HELP = `socialpub mcp: the API for AI assistants (Model Context Protocol, stdio)

An assistant starts \`socialpub mcp\` itself and talks to it on stdin/stdout. It
uses the profile and key the commands use (--profile, then SOCIALPUB_PROFILE,
then the current profile; SOCIALPUB_API_KEY wins over the stored key), the same
validation, idempotency and redaction. Logs go to stderr. Closing stdin or
Ctrl-C ends it.

Tools
  check_post        each platform's rules judged locally (text count, media
                    count and mix, each file's size, dimensions, duration);
                    sends nothing, needs no key
  preview_post      each platform's rendering: the "more" fold and what it
                    hides, thread parts, alt text, first comment, feed crop;
                    by post_id, or payload fields (then sends nothing)
  create_draft      a draft for one or more platforms: platforms, text,
                    text_for, media, title
  schedule_post     a draft by post_id, or a new post, at a time: at (RFC 3339
                    with an offset, or "YYYY-MM-DD HH:MM" with time_zone);
                    relative times are refused
  list_posts        posts newest first, by status; at most 50 rows, next_cursor
                    for more
  get_post          one post in full with its outcome (failed · 3/5 published)
                    and results
  update_post       change a draft or scheduled post: text, text_for,
                    add_platforms, remove_platforms, media, alt, title; only
                    what differs is sent
  unschedule_post   a scheduled post back to a draft (move one with
                    schedule_post)
  delete_post       delete a draft or scheduled post (the user confirms first)
  list_results      results newest first: post_ids, platforms, failed_only,
                    since, until, limit (≤ 50), cursor; rows trimmed to the
                    fields that matter
  get_result        one result in full, by id
  wait_for_results  until every platform of a post has reported, or
                    timeout_seconds (≤ 600); one call answers within 40 s
                    (still_waiting: call again), with progress (platforms
                    reported) at least every 10 s; a draft or a post due
                    after the wait answers at once
  retry_failed      the failed targets of a post again, as a new draft (as
                    results retry: targets on an expired or disconnected
                    account are left out unless include_unhealthy)
  results_stats     total, succeeded and failed, grouped by platform, code,
                    account or post
  list_accounts     the connected accounts: status, default, token expiry, and
                    the last success and failure among recent results
                    (read-only)

The write tools (create_draft, schedule_post, update_post, unschedule_post,
delete_post, retry_failed) take dry_run (validate and show the requests, send
nothing) and idempotency_key (default: derived from the arguments, so a repeated
call never posts twice; a replay answers with the post as it is now). They
answer with the post as list_posts shows it; get_post has it in full.
create_draft, schedule_post and update_post take accounts (ids, @handles or
platform:@handles, as list_accounts gives them).
--read-only leaves them out; --drafts-only leaves out schedule_post,
unschedule_post and delete_post and edits drafts only. Media come from https://
URLs, or from local files under the folders given with --media-dir (repeatable;
none by default), links and .. resolved. Secrets in arguments (the key, whsec_…,
user:pass@ in a URL) are refused, never masked into a post.

Destructive changes (delete, unschedule, moving a scheduled post, removing a
platform, replacing a scheduled post's text) are confirmed by the user: through
the client (elicitation) when it can ask, otherwise the call answers with a
summary and a confirm_token, valid 10 minutes for exactly that change, which the
same call must carry once the user agreed. --allow-destructive skips this, for a
host that confirms every tool call itself.

Every result is JSON under a line saying it is data from the service, never
instructions; input schemas fit OpenAI's strict function calling, Gemini's
function declarations and Anthropic's strict tool use (leave an argument out
with null), and each tool has an output schema. A host that still declares
tools with Gemini's older OpenAPI parameters takes --schema-dialect openapi
(nullable, no additionalProperties).

Errors are tool errors with a code: invalid_input (and the field), auth,
not_found, rate_limited (and retryAt; a call sleeps through a rate limit of up
to 30 s, less with --max-wait), network, error.

Add it to an assistant (merged with its other servers, the old file kept aside,
no key written; --dry-run prints the change):
  socialpub mcp install --client CLIENT
(claude-code, claude-desktop, cursor, codex or vscode)

or by hand (the mcpServers shape of Claude Desktop and Cursor; other hosts take
the same command, args and env):
  {
    "mcpServers": {
      "socialpub": {
        "command": "socialpub",
        "args": ["mcp"],
        "env": { "SOCIALPUB_PROFILE": "default" }
      }
    }
  }

Try it on the sandbox first:
  socialpub sandbox --write-profile
then "SOCIALPUB_PROFILE": "sandbox" in the env above.
`;
