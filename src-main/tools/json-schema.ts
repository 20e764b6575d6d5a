// The tools as the model sees them: name, description and the JSON Schema of the input, built
// once per registration from the tool's zod schema with zod 4's own converter.
import { z } from 'zod'
import type { ModelToolSpec } from '../../src-shared/model'

/**
 * Throws (at registration, naming the tool) when the schema cannot describe an object input.
 * `own`: a JSON Schema the tool brings itself (MCP), shown as is instead of the zod schema's.
 */
export function modelToolSpec(name: string, description: string, schema: z.ZodType, own?: Record<string, unknown>): ModelToolSpec {
  const json = own ?? zodInputSchema(name, schema)
  if (json.type !== 'object') {
    throw new Error(`tool "${name}": inputSchema must describe an object (z.object(...)), got JSON Schema type ${JSON.stringify(json.type)}`)
  }
  // Some providers reject the meta-schema keyword; the dialect is implied.
  const { $schema: _dialect, ...inputSchema } = json
  return Object.freeze({ name, description, inputSchema })
}

function zodInputSchema(name: string, schema: z.ZodType): Record<string, unknown> {
  try {
    // `input`: what the model may send (fields with defaults are optional); parts JSON Schema
    // cannot express (refinements, transforms) are described as "any" instead of throwing.
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  } catch (error) {
    throw new Error(`tool "${name}": inputSchema cannot be converted to JSON Schema: ${(error as Error).message}`)
  }
}
