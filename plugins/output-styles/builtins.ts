// The output styles Claude Code ships, with the same names and purposes; the texts are Seam's own.
// Default is Seam's system prompt with no style section. Explanatory and Learning are coding
// styles: Seam's own instructions stay (as Claude Code keeps its coding instructions for them) and
// the style's text is added after them.
import type { OutputStyle } from './discover'

export const DEFAULT_STYLE = 'Default'

const EXPLANATORY = `While you work on the user's task, teach them about their codebase and the choices you make.

- Do the task as you would otherwise; the explanations come on top of the work, never instead of it.
- When a choice is worth understanding (why this approach and not the obvious other one, a pattern this codebase follows, a trade-off, a pitfall you avoided), add a short note marked "Insight:" right before or after the code it is about.
- Keep each note to two or three sentences about this code and this project, not general programming lessons.
- Give a note only where it adds something: a routine edit needs none.`

const LEARNING = `Work with the user as a pair who wants to learn by doing, not only to see the task done.

- Add short "Insight:" notes, as in the Explanatory style, where a choice in the code is worth understanding.
- When the task has a small piece that holds a real decision (a condition, a data shape, the core of an algorithm, an error case; about 2 to 10 lines), leave it to the user: write everything around it, put a \`TODO(human)\` comment where their code goes, then stop and ask them to write it, saying what the piece must do, what it receives and returns, and what to weigh.
- Ask for at most one such piece at a time, and do the boilerplate, the wiring and the routine parts yourself.
- When they answer, read what they wrote, say briefly what works and what could be better, then carry on.`

export const BUILTIN_STYLES: readonly OutputStyle[] = [
  { name: DEFAULT_STYLE, source: 'built-in', description: "Seam's own instructions for getting software engineering work done, with no style added", body: '' },
  { name: 'Explanatory', source: 'built-in', description: 'Explains implementation choices and codebase patterns in short "Insight" notes while doing the task', body: EXPLANATORY },
  { name: 'Learning', source: 'built-in', description: 'Learn by doing: shares insights and asks you to write small, meaningful pieces yourself, marked TODO(human)', body: LEARNING }
]
