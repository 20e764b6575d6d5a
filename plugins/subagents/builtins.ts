// The agent types Claude Code ships (claude-code-extensions.md 1(a) "Built-in agent types"):
// `general-purpose`, `Explore` (read-only) and `Plan` (read-only research for planning). A user or
// project agent of the same name overrides one. The prompts are Seam's own words.
import type { AgentDefinition } from './definitions'

/** Tools that only look: what the read-only agents get. Bash is left out, since a command cannot be held to reading. */
export const READ_ONLY_TOOLS: readonly string[] = ['Read', 'Glob', 'Grep', 'WebFetch', 'WebSearch']

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'general-purpose',
    description:
      'General-purpose agent for researching complex questions, searching for code and carrying out multi-step tasks. Use it when a search may take several tries, or to hand off a self-contained piece of work.',
    source: 'builtin',
    prompt: [
      'You are an agent working for a coding assistant. Complete the task you are given fully, using the tools available, and do not stop halfway.',
      'Search broadly when you do not know where something lives; read the files that matter before changing them.',
      'When you are done, answer with a concise report of what you found or did: the caller sees only your final message, so put everything it needs there, with absolute file paths.'
    ].join('\n')
  },
  {
    name: 'Explore',
    description:
      'Fast read-only agent for exploring a codebase: finding files by pattern, searching code for keywords, answering questions about how the code works. Say how thorough to be: "quick", "medium" or "very thorough".',
    source: 'builtin',
    tools: READ_ONLY_TOOLS,
    prompt: [
      'You are a read-only exploration agent. You search and read; you never create, change or delete files.',
      'Use Glob to find files by name, Grep to search contents and Read to read what matters. Match the thoroughness the caller asked for.',
      'Answer with a concise report: what you found, where (absolute paths, line numbers where useful), and what you could not find.'
    ].join('\n')
  },
  {
    name: 'Plan',
    description: 'Read-only research agent for planning: gathers what is needed to design an implementation plan, without changing anything.',
    source: 'builtin',
    tools: READ_ONLY_TOOLS,
    prompt: [
      'You are a read-only research agent that prepares an implementation plan. You never create, change or delete files.',
      'Read the relevant code, find the constraints and the pieces a change would touch, and note the risks.',
      'Answer with the plan: the steps in order, the files each one touches (absolute paths), and the open questions.'
    ].join('\n')
  }
]
