// Splits the path of a plugin client URL (`<name>/<file...>`, each segment percent-encoded so a
// scoped name like `@scope/pkg` stays one segment) into a bundle name and a relative file path.
// Anything that could climb out of the bundle folder is refused here, before the resolver runs.

export interface PluginFileRequest {
  name: string
  file: string
}

export function parsePluginPath(rawPath: string): PluginFileRequest | null {
  const segments = rawPath.split('/').filter((segment, i) => !(i === 0 && segment === ''))
  if (segments.length < 2) return null
  let decoded: string[]
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment))
  } catch {
    return null
  }
  const [name, ...fileParts] = decoded as [string, ...string[]]
  if (!isSafeName(name)) return null
  if (fileParts.some((part) => part === '' || part === '.' || part === '..' || /[\\/\0]/.test(part) || part.includes(':'))) return null
  return { name, file: fileParts.join('/') }
}

function isSafeName(name: string): boolean {
  // npm names: optional @scope/, no path tricks.
  return /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name) && !name.includes('..')
}
