import { useEffect } from 'react';
import type { Subscription } from 'xstate';
import { useDetailSend } from '../detail-hooks.ts';

/** An editor's actor as its host needs it: what it emits after a save, and whether it has finished. */
interface EditorActor {
  on: (type: 'application.changed', handler: () => void) => Subscription;
  subscribe: (listener: (snapshot: { status: string }) => void) => Subscription;
  getSnapshot: () => { status: string };
}

/**
 * AM §4 refetch: when the editor's machine says the application changed, the detail machine
 * refetches (the cards and the activity feed then show the change); when the machine finishes
 * (saved or closed), the modal goes.
 */
export function useEditorHost(actor: EditorActor, onClose: () => void): void {
  const send = useDetailSend();
  useEffect(() => {
    const changed = actor.on('application.changed', () => send({ type: 'detail.refetch' }));
    const finished = actor.subscribe((snapshot) => {
      if (snapshot.status === 'done') onClose();
    });
    if (actor.getSnapshot().status === 'done') onClose();
    return () => {
      changed.unsubscribe();
      finished.unsubscribe();
    };
  }, [actor, send, onClose]);
}
