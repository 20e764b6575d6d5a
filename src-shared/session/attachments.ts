// Images attached to a prompt. They are stored in the session log itself, base64 in the
// `user/message` event: the model request is rebuilt from the log alone (resume sends the same
// bytes), one append keeps the prompt and its images durable together, and the caps below bound
// what a load has to parse. No Node imports: the renderer checks the same caps before sending.
import { z } from 'zod'

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number]

/** Per image: what the Anthropic Messages API takes (5 MB of base64 is 3.75 MB of bytes). */
export const MAX_IMAGE_BYTES = 3_750_000
export const MAX_IMAGES_PER_MESSAGE = 4
/** All of one message's images together: the message has to fit one WebSocket frame (8 MB). */
export const MAX_MESSAGE_IMAGE_BYTES = 5_000_000

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

export const ImageAttachmentShape = z.object({
  mediaType: z.enum(IMAGE_MEDIA_TYPES, { error: `must be one of ${IMAGE_MEDIA_TYPES.join(', ')}` }),
  /** The image's bytes, base64 (no data: prefix). */
  data: z.string().min(1, 'must not be empty').regex(BASE64, 'must be base64'),
  /** The file name it was pasted or dropped as, for the UI. */
  name: z.string().max(255).optional()
})
export type ImageAttachment = z.infer<typeof ImageAttachmentShape>

/** Bytes the base64 text decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.floor((data.length * 3) / 4) - padding
}

export function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`
}

/** Why these images cannot go in one message, or undefined when they can. */
export function imagesProblem(images: readonly Pick<ImageAttachment, 'mediaType' | 'data' | 'name'>[]): string | undefined {
  if (images.length > MAX_IMAGES_PER_MESSAGE) return `At most ${MAX_IMAGES_PER_MESSAGE} images per message (this one has ${images.length}).`
  let total = 0
  for (const [i, image] of images.entries()) {
    if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(image.mediaType)) {
      return `${image.name ?? `image ${i + 1}`}: ${image.mediaType || 'this file type'} is not an image Seam can send (PNG, JPEG, GIF or WebP).`
    }
    const bytes = base64Bytes(image.data)
    if (bytes > MAX_IMAGE_BYTES) return `${image.name ?? `image ${i + 1}`} is ${formatBytes(bytes)}: an image can be at most ${formatBytes(MAX_IMAGE_BYTES)}.`
    total += bytes
  }
  if (total > MAX_MESSAGE_IMAGE_BYTES) return `The images add up to ${formatBytes(total)}: one message can carry at most ${formatBytes(MAX_MESSAGE_IMAGE_BYTES)}.`
  return undefined
}

/** The contract's and the agent's schema of a message's images: shape, then the caps. */
export const ImageAttachmentsSchema = z
  .array(ImageAttachmentShape)
  .superRefine((images, ctx) => {
    const problem = imagesProblem(images)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
