import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { builtinTools } from './index'

describe('builtinTools', () => {
  it('provides Claude Code tool names with object JSON Schemas whose fields are described', () => {
    const tools = builtinTools()
    expect(tools.map((tool) => tool.name)).toEqual(['Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep'])
    for (const tool of tools) {
      const json = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as { type: string; properties: Record<string, { description?: string }> }
      expect(json.type, tool.name).toBe('object')
      for (const [field, schema] of Object.entries(json.properties)) expect(schema.description, `${tool.name}.${field}`).toBeTruthy()
      expect(tool.description.length, tool.name).toBeGreaterThan(40)
    }
  })

  it('keeps Claude Code argument names; include_ignored is the one Seam-only argument (Glob, Grep), said so in its description', () => {
    const fields = Object.fromEntries(
      builtinTools().map((tool) => [tool.name, Object.keys((z.toJSONSchema(tool.inputSchema, { io: 'input' }) as { properties: object }).properties)])
    )
    expect(fields).toEqual({
      Bash: ['command', 'timeout', 'description', 'run_in_background'],
      Read: ['file_path', 'offset', 'limit'],
      Write: ['file_path', 'content'],
      Edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
      Glob: ['pattern', 'path', 'include_ignored'],
      Grep: ['pattern', 'path', 'glob', 'type', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'multiline', 'head_limit', 'include_ignored']
    })
    for (const tool of builtinTools().filter((t) => t.name === 'Glob' || t.name === 'Grep')) {
      const json = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as { properties: Record<string, { description?: string }> }
      expect(json.properties.include_ignored?.description).toMatch(/^Seam only \(not in Claude Code\)/)
    }
  })

  it('fails loudly on an invalid option, naming the field', () => {
    expect(() => builtinTools({ maxOutputChars: -1 })).toThrow(/maxOutputChars/)
  })
})
