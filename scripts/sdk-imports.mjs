#!/usr/bin/env node
// Rewrites imports of Seam's source tree in plugins/ and examples/ to the plugin SDK
// (@seam/sdk, @seam/sdk/node, @seam/sdk/testing). Mechanical and idempotent: run it after
// merging a branch that adds a plugin still importing src-main or src-shared.
//   node scripts/sdk-imports.mjs [DIR...]   (default: plugins examples)
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(import.meta.url), '../..')

/** Module (relative to the repository root) → the SDK entry that exports it. */
export const SDK_ENTRY_OF = new Map([
  ['src-shared/kernel', '@seam/sdk'],
  ['src-shared/kernel/types', '@seam/sdk'],
  ['src-shared/kernel/context', '@seam/sdk'],
  ['src-shared/host/agent', '@seam/sdk'],
  ['src-shared/host/tools', '@seam/sdk'],
  ['src-shared/host/services', '@seam/sdk'],
  ['src-shared/host/workspace', '@seam/sdk'],
  ['src-shared/host/context', '@seam/sdk'],
  ['src-shared/host/approval-modes', '@seam/sdk'],
  ['src-shared/session/context-events', '@seam/sdk'],
  ['src-shared/session/events', '@seam/sdk'],
  ['src-shared/session/hook-events', '@seam/sdk'],
  ['src-shared/model', '@seam/sdk'],
  ['src-shared/validation', '@seam/sdk'],
  ['src-main/app/plugin-host', '@seam/sdk'],
  ['src-main/plugins/watch', '@seam/sdk/node'],
  ['src-main/tools/builtin/paths', '@seam/sdk/node'],
  ['src-main/process/guarded-spawn', '@seam/sdk/node'],
  ['src-main/security/keys', '@seam/sdk/node'],
  ['src-main/security/trust-pins', '@seam/sdk'],
  ['src-main/process/liveness', '@seam/sdk/testing'],
  ['src-main/agent', '@seam/sdk/testing'],
  ['src-main/agent/system-prompt', '@seam/sdk/testing'],
  ['src-main/agent/loop-fixture', '@seam/sdk/testing'],
  ['src-main/agent/step', '@seam/sdk/testing'],
  ['src-main/tools', '@seam/sdk/testing'],
  ['src-main/tools/builtin', '@seam/sdk/testing'],
  ['src-main/session/store', '@seam/sdk/testing'],
  ['src-main/app/runtime', '@seam/sdk/testing'],
  ['src-main/cli/terminal-approval', '@seam/sdk/testing'],
  ['test-support/scripted-model', '@seam/sdk/testing']
])

async function* sourceFiles(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue
    const full = join(dir, entry.name)
    if (entry.isDirectory()) yield* sourceFiles(full)
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full
  }
}

/** Returns the file's text with every mapped specifier replaced, and the specifiers left unmapped. */
export function rewrite(file, text) {
  const unmapped = []
  const out = text.replace(/((?:from|import|declare module)\s*\(?\s*)'((?:\.\.\/)+[^']+)'/g, (whole, lead, spec) => {
    const target = relative(root, resolve(file, '..', spec)).split('\\').join('/')
    const entry = SDK_ENTRY_OF.get(target)
    if (!entry) {
      // Other test-support files stay: a plugin's tests may import them.
      if (target.startsWith('src-')) unmapped.push(spec)
      return whole
    }
    return `${lead}'${entry}'`
  })
  return { text: out, unmapped }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['plugins', 'examples']
  let changed = 0
  for (const dir of dirs) {
    for await (const file of sourceFiles(resolve(root, dir))) {
      const before = await readFile(file, 'utf8')
      const { text, unmapped } = rewrite(file, before)
      for (const spec of unmapped) console.error(`${relative(root, file)}: no SDK entry exports ${spec}`)
      if (text !== before) {
        await writeFile(file, text)
        changed++
      }
    }
  }
  console.log(`${changed} files rewritten`)
}
