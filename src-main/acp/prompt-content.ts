// An ACP prompt (content blocks) -> the one message a Seam turn takes: its text and its images.
// Mentions stay where the user put them; the text of embedded resources follows the message as
// context blocks, so the model reads what the editor had open (unsaved buffers included). Image
// blocks become the prompt's images (the same path as the desktop composer's: checked against
// src-shared/session/attachments.ts, logged with the prompt, sent as the provider's image parts).
import type { ContentBlock } from '@agentclientprotocol/sdk'
import { IMAGE_MEDIA_TYPES, imagesProblem, type ImageAttachment, type ImageMediaType } from '../../src-shared/session/attachments'

export class PromptContentError extends Error {}

export interface PromptContent {
  text: string
  images: ImageAttachment[]
}

/** The text of a prompt that has no images (an image block is refused). */
export function promptText(blocks: readonly ContentBlock[]): string {
  const { text, images } = promptContent(blocks)
  if (images.length > 0) throw new PromptContentError('prompt: image content is not expected here')
  return text
}

export function promptContent(blocks: readonly ContentBlock[]): PromptContent {
  let message = ''
  const attached: string[] = []
  const images: ImageAttachment[] = []
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
      case 'image': {
        if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(block.mimeType)) {
          throw new PromptContentError(`prompt[${index}].mimeType: ${block.mimeType} is not an image Seam can send (${IMAGE_MEDIA_TYPES.join(', ')})`)
        }
        if (!/^[A-Za-z0-9+/]+={0,2}$/.test(block.data)) throw new PromptContentError(`prompt[${index}].data: must be the image's bytes in base64`)
        images.push({ mediaType: block.mimeType as ImageMediaType, data: block.data })
        break
      }
      case 'audio':
        throw new PromptContentError(`prompt[${index}]: audio content is not supported (promptCapabilities.audio is false)`)
    }
  })
  const problem = imagesProblem(images)
  if (problem) throw new PromptContentError(`prompt: ${problem}`)
  const text = [message.trim(), ...attached].filter((part) => part !== '').join('\n\n')
  if (text === '' && images.length === 0) throw new PromptContentError('prompt: the message is empty')
  return { text, images }
}

function nameOf(uri: string): string {
  const path = uri.replace(/^file:\/\//, '')
  return path.slice(path.lastIndexOf('/') + 1) || uri
}
