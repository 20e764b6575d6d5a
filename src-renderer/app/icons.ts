// The app's icons: one maintained set (lucide-react, pinned), imported here only, so the set the
// UI uses is one list and a swap is one file. Icons are decoration: callers pass aria-hidden and
// name the control in words.
export {
  ChevronDown,
  ChevronRight,
  Ellipsis as MoreHorizontal,
  Folder,
  FolderOpen,
  PanelLeftClose,
  PanelLeftOpen,
  ShieldOff,
  TriangleExclamationPoint as Warning
} from 'lucide-react'
