// The SDK's exported API as text: every name each public entry exports, with its declared type
// as the TypeScript checker sees it (members of interfaces and classes one per line). Comments
// and implementation bodies are not part of it, so only a change a plugin could observe changes
// the text. api.test.ts compares it with the recorded api.txt.
import path from 'node:path'
import ts from 'typescript'

/** The entries whose exports are the versioned API (./testing is a test harness, not API). */
export const API_ENTRIES = ['index.ts', 'node.ts', 'client.ts', 'version.ts'] as const

const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.WriteArrowStyleSignature

function compilerOptions(root: string): ts.CompilerOptions {
  const file = path.join(root, 'tsconfig.json')
  const read = ts.readConfigFile(file, ts.sys.readFile)
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'))
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root).options
}

/** Drops the `import("…").` qualifiers the checker writes for names not in scope: where a type is declared is not part of the API. */
function clean(text: string): string {
  return text.replace(/import\("[^"]*"\)\./g, '')
}

function describe(checker: ts.TypeChecker, name: string, symbol: ts.Symbol): string[] {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const decl = target.declarations?.[0]
  if (!decl) return [`${name}: <no declaration>`]
  const lines: string[] = []
  const typeText = (type: ts.Type) => clean(checker.typeToString(type, decl, FLAGS))
  const members = (type: ts.Type) => {
    for (const member of checker.getPropertiesOfType(type).slice().sort((a, b) => a.name.localeCompare(b.name))) {
      const optional = member.flags & ts.SymbolFlags.Optional ? '?' : ''
      const memberDecl = member.declarations?.[0]
      const readonly = memberDecl && ts.getCombinedModifierFlags(memberDecl) & ts.ModifierFlags.Readonly ? 'readonly ' : ''
      lines.push(`  ${readonly}${member.name}${optional}: ${typeText(checker.getTypeOfSymbolAtLocation(member, decl))}`)
    }
    for (const signature of type.getCallSignatures()) lines.push(`  (call) ${clean(checker.signatureToString(signature, decl, FLAGS))}`)
  }
  if (target.flags & ts.SymbolFlags.Class) {
    lines.push(`class ${name}`)
    for (const signature of checker.getTypeOfSymbolAtLocation(target, decl).getConstructSignatures()) {
      lines.push(`  new ${clean(checker.signatureToString(signature, decl, FLAGS))}`)
    }
    members(checker.getDeclaredTypeOfSymbol(target))
  } else if (target.flags & ts.SymbolFlags.Interface) {
    const declared = checker.getDeclaredTypeOfSymbol(target)
    const params = (declared as ts.InterfaceType).typeParameters?.map((p) => typeText(p)).join(', ')
    lines.push(`interface ${name}${params ? `<${params}>` : ''}`)
    members(declared)
  } else if (target.flags & ts.SymbolFlags.TypeAlias) {
    const declared = checker.getDeclaredTypeOfSymbol(target)
    const aliasDecl = decl as ts.TypeAliasDeclaration
    const params = aliasDecl.typeParameters?.map((p) => p.getText()).join(', ')
    lines.push(`type ${name}${params ? `<${params}>` : ''} = ${clean(checker.typeToString(declared, decl, FLAGS | ts.TypeFormatFlags.InTypeAlias))}`)
  }
  if (target.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
    lines.push(`${target.flags & ts.SymbolFlags.Function ? 'function' : 'const'} ${name}: ${typeText(checker.getTypeOfSymbolAtLocation(target, decl))}`)
  }
  if (lines.length === 0) lines.push(`${name}: ${ts.SymbolFlags[target.flags] ?? target.flags}`)
  return lines
}

/** The API text of the SDK in `sdkDir` (repository root: two folders up). */
export function apiSurface(sdkDir: string): string {
  const root = path.resolve(sdkDir, '..', '..')
  const entries = API_ENTRIES.map((entry) => path.join(sdkDir, entry))
  const program = ts.createProgram(entries, { ...compilerOptions(root), noEmit: true })
  const checker = program.getTypeChecker()
  const out: string[] = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry)
    const moduleSymbol = source && checker.getSymbolAtLocation(source)
    if (!moduleSymbol) throw new Error(`${entry}: not a module the compiler could read`)
    out.push(`## ${path.basename(entry)}`)
    const exports = checker.getExportsOfModule(moduleSymbol).slice().sort((a, b) => a.name.localeCompare(b.name))
    for (const symbol of exports) out.push(...describe(checker, symbol.name, symbol))
  }
  return out.join('\n') + '\n'
}
