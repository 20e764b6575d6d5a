// The `include_ignored` argument Glob and Grep share. Claude Code's Glob and Grep have no such
// argument (ripgrep always honours ignore files there): it is a Seam extension, optional, so a
// call shaped like Claude Code's behaves like Claude Code's.
import { z } from 'zod'

export const IncludeIgnoredArg = z
  .boolean()
  .optional()
  .describe('Seam only (not in Claude Code): true also lists files that .gitignore, .ignore or .rgignore exclude, and node_modules. Default false.')

export const IGNORED_FILES_NOTE =
  'Files excluded by .gitignore (inside a git repository, with .git/info/exclude), .ignore or .rgignore are skipped unless include_ignored is true; .git is never searched.'
