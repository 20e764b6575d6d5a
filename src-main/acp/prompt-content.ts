// An ACP prompt (content blocks) -> the one text message a Seam turn takes. Mentions stay where
// the user put them; the text of embedded resources follows the message as context blocks, so
// the model reads what the editor had open (unsaved buffers included).
import type { ContentBlock } from '@agentclientprotocol/sdk'

export class PromptContentError extends Error {}

export function promptText(blocks: readonly ContentBlock[]): string {
  let message = ''
  const attached: string[] = []
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        message += block.text
        break
      case 'resource_link':
        message += `[@${block.title ?? block.name}](${block.uri})`
        break
      case 'resource': {
        const resource = block.resource
        if (!('text' in resource)) {
          throw new PromptContentError(`prompt[${index}]: binary embedded resources (${resource.uri}) are not supported; send text resources`)
        }
        message += `[@${nameOf(resource.uri)}](${resource.uri})`
        attached.push(`<context uri="${resource.uri}"${resource.mimeType ? ` mimeType="${resource.mimeType}"` : ''}>\n${resource.text}\n</context>`)
        break
      }
      case 'image':
      case 'audio':
        throw new PromptContentError(`prompt[${index}]: ${block.type} content is not supported (Seam's model requests are text only; promptCapabilities.${block.type} is false)`)
    }
  })
  const text = [message.trim(), ...attached].filter((part) => part !== '').join('\n\n')
  if (text === '') throw new PromptContentError('prompt: the message is empty')
  return text
}

function nameOf(uri: string): string {
  const path = uri.replace(/^file:\/\//, '')
  return path.slice(path.lastIndexOf('/') + 1) || uri
}
