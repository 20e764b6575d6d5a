// An installed bundle is loaded only while its folder is what was installed: the tree's hash must
// equal the one lock.json recorded. A changed host.js (another program, a sync tool, an attacker
// with write access to the Seam home) is refused with an error that names the bundle and the fix.
import { errorText } from '../../../src-shared/kernel'
import { folderIntegrity } from './archive'
import type { LockEntry } from './lockfile'
import { BundleError } from './manifest'

export async function verifyInstalledBundle(entry: LockEntry, dir: string): Promise<void> {
  const label = `${entry.name}@${entry.version}`
  // Entries written before contentIntegrity existed: a folder install's integrity is the tree's.
  const expected = entry.contentIntegrity ?? entry.integrity
  const reinstall = `Reinstall it with \`seam plugin install ${entry.source} --force\` (or Settings → Plugins → Install from file), or remove it with \`seam plugin remove ${entry.name}\`.`
  let found: string
  try {
    found = await folderIntegrity(dir)
  } catch (error) {
    throw new BundleError(`bundle ${label} was not loaded: its folder ${dir} cannot be read (${errorText(error)}). ${reinstall}`, 'BUNDLE_INTEGRITY')
  }
  if (found !== expected) {
    throw new BundleError(
      `bundle ${label} was not loaded: its installed files do not match lock.json (recorded ${expected}, found ${found}); they were changed after it was installed. ${reinstall}`,
      'BUNDLE_INTEGRITY'
    )
  }
}
