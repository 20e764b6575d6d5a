// The images a message carried, as thumbnails: a prompt's, a steering message's, a queued one's.
import type { ImageAttachment } from '../../src-shared/session/attachments'
import { dataUrl } from '../composer/attachments'

export function SentImages({ images }: { images: readonly ImageAttachment[] | undefined }) {
  if (!images || images.length === 0) return null
  return (
    <ul className="thumbs" aria-label="Images sent">
      {images.map((image, index) => (
        <li key={index} className="thumb">
          <img src={dataUrl(image)} alt={image.name ?? `Image ${index + 1}`} />
        </li>
      ))}
    </ul>
  )
}
