// What the user typed in a turn, without the blocks agents and IDEs inject into it.
/** Text a harness put in a user turn: not typed by the user. */
const INJECTED = /^\s*(?:<(?:system-reminder|environment_context|user_instructions|local-command-stdout|local-command-caveat|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook|local-command-stderr|command-name|command-message|command-args|turn_aborted|user_shell_command|environment_details|ide_opened_file|ide_selection)\b|# AGENTS\.md instructions|Caveat: The messages below were generated|\[Request interrupted by user|This session is being continued from a previous conversation|\[[\w-]+(?: for '[^\n]*?')?\] Result:|\[TASK RESUMPTION\]|# TODO LIST UPDATE REQUIRED|# task_progress RECOMMENDED|\/(?:add|drop|read-only|ls|clear|reset|tokens|model|undo|diff|exit|quit|help|commit|git|map|settings)\b)/;
const WRAPPED = /<(system-reminder|environment_details|ide_opened_file|ide_selection)>[\s\S]*?<\/\1>/g;

/** A user text as typed: injected blocks removed; '' when the whole text was injected. */
export function typed(text: string): string {
  const t = text.replace(WRAPPED, '').replace(/<\/?(?:task|feedback|user_message)>/g, '').trim();
  return INJECTED.test(t) ? '' : t;
}
