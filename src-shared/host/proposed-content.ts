// What a file-changing call (Claude Code's Write, Edit, MultiEdit) would leave in its file, worked
// out from the file as it is now: the approval's diff in the window and on the terminal.

/** The file's text after the call, or null when the arguments do not say (then the JSON shows). */
export function proposedContent(tool: string, args: Readonly<Record<string, unknown>>, before: string): string | null {
  if (tool === 'Write') return typeof args.content === 'string' ? args.content : null
  if (tool === 'Edit') {
    const { old_string: oldString, new_string: newString, replace_all: replaceAll } = args
    if (typeof oldString !== 'string' || typeof newString !== 'string') return null
    return applyEdit(before, oldString, newString, replaceAll === true)
  }
  if (tool === 'MultiEdit' && Array.isArray(args.edits)) {
    let text = before
    for (const edit of args.edits as Array<Record<string, unknown>>) {
      if (typeof edit?.old_string !== 'string' || typeof edit.new_string !== 'string') return null
      text = applyEdit(text, edit.old_string, edit.new_string, edit.replace_all === true)
    }
    return text
  }
  return null
}

/** One Edit, literally (no `$&` patterns), once or everywhere; an empty old string writes the new one. */
export function applyEdit(original: string, oldString: string, newString: string, replaceAll: boolean): string {
  if (oldString === '') return newString
  if (replaceAll) return original.split(oldString).join(newString)
  const at = original.indexOf(oldString)
  return at < 0 ? original : original.slice(0, at) + newString + original.slice(at + oldString.length)
}
