import type { Line } from '../../api/types';
import { LazyPlayerModal } from './LazyPlayerModal';
import { ExtendModal, LinksModal, RenewModal, ScreensModal } from './LineModals';

export type LineDialogKind = 'extend' | 'links' | 'screens' | 'renew' | 'lazy';

/** The line actions' dialogs, loaded on first use so the list itself stays small. */
export default function LineDialog({ kind, line, onClose }: { kind: LineDialogKind; line: Line; onClose: () => void }) {
  switch (kind) {
    case 'extend':
      return <ExtendModal line={line} opened onClose={onClose} />;
    case 'screens':
      return <ScreensModal line={line} opened onClose={onClose} />;
    case 'renew':
      return <RenewModal line={line} opened onClose={onClose} />;
    case 'links':
      return <LinksModal line={line} opened onClose={onClose} />;
    case 'lazy':
      return <LazyPlayerModal line={line} opened onClose={onClose} />;
  }
}
