// api.txt: the recorded API of one SDK version, and the rule that compares it with the current one.

export interface ApiRecord {
  version: string
  api: string
}

export type ApiCheck = { ok: true } | { ok: false; canRecord: boolean; error: string }

const HEADER = /^# @seam\/sdk (\S+)\n/

export function formatApiRecord(record: ApiRecord): string {
  return `# @seam/sdk ${record.version}\n${record.api}`
}

export function parseApiRecord(text: string): ApiRecord {
  const match = HEADER.exec(text)
  if (!match) throw new Error('api.txt: the first line must be "# @seam/sdk <version>"')
  return { version: match[1], api: text.slice(match[0].length) }
}

/** The lines only in `before` (-) and only in `after` (+), at most `limit` of them. */
function lineDiff(before: string, after: string, limit = 40): string {
  const a = before.split('\n')
  const b = after.split('\n')
  const inA = new Set(a)
  const inB = new Set(b)
  const lines = [...a.filter((l) => !inB.has(l)).map((l) => `- ${l}`), ...b.filter((l) => !inA.has(l)).map((l) => `+ ${l}`)]
  return lines.slice(0, limit).join('\n') + (lines.length > limit ? `\n… ${lines.length - limit} more` : '')
}

export function checkApiRecord(recorded: ApiRecord, current: ApiRecord, changelog: string): ApiCheck {
  const changed = recorded.api !== current.api
  if (recorded.version === current.version) {
    if (!changed) return { ok: true }
    return {
      ok: false,
      canRecord: false,
      error:
        `the exported API of @seam/sdk changed without a version bump (still ${current.version}): bump "version" in ` +
        `packages/sdk/package.json (major for a breaking change), add it to CHANGELOG.md, then record it with ` +
        `SEAM_SDK_API_UPDATE=1 npx vitest run packages/sdk/api.test.ts\n${lineDiff(recorded.api, current.api)}`
    }
  }
  const heading = new RegExp(`^## ${current.version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'm')
  if (!heading.test(changelog)) {
    return { ok: false, canRecord: false, error: `CHANGELOG.md has no "## ${current.version}" entry for the new version` }
  }
  return {
    ok: false,
    canRecord: true,
    error: `api.txt records ${recorded.version}, package.json says ${current.version}: record it with SEAM_SDK_API_UPDATE=1 npx vitest run packages/sdk/api.test.ts`
  }
}
