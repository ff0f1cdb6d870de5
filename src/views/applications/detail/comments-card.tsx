import { useSelector } from '@xstate/react';
import { formatDetailDate, type DetailCards } from '../../../domain/application-detail.ts';
import type { applicationCommentsMachine } from '../../../machines/application-comments.machine.ts';
import { commentMaxLength } from '../../../schemas/application-detail.schema.ts';
import { Button } from '../../ui/button.tsx';
import { TextArea } from '../../ui/text-area.tsx';
import { Card } from './detail-card.tsx';
import { useDetailSelector } from './detail-hooks.ts';
import type { ActorRefFrom } from 'xstate';
import styles from './application-detail.module.css';

type CommentsRef = ActorRefFrom<typeof applicationCommentsMachine>;

/** AM §2/§5 Comments: read with comments.view, add with comment.add (validated 300 ms after typing and on blur). */
export function CommentsCard({ cards }: { cards: DetailCards }) {
  const comments = useDetailSelector((snapshot) => snapshot.children.comments);
  return <Card title="Comments">{comments && <CommentsBody cards={cards} actor={comments} />}</Card>;
}

function CommentsBody({ cards, actor }: { cards: DetailCards; actor: CommentsRef }) {
  const comments = useSelector(actor, (snapshot) => snapshot.context.comments);
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const failed = useSelector(actor, (snapshot) => snapshot.context.loadFailed);
  const draft = useSelector(actor, (snapshot) => snapshot.context.draft);
  const message = useSelector(actor, (snapshot) => snapshot.context.message);
  const saving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const saveFailed = useSelector(actor, (snapshot) => snapshot.context.saveFailed);
  return (
    <>
      {cards.addComment && (
        <form
          className={styles.commentForm}
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'comment.submit' });
          }}
        >
          <TextArea
            label="Add a comment"
            value={draft}
            onChange={(text) => actor.send({ type: 'comment.change', text })}
            onBlur={() => actor.send({ type: 'comment.blur' })}
            errorMessage={message}
            description={`${draft.trim().length} / ${commentMaxLength}`}
            isDisabled={saving}
          />
          <div className={styles.formButtons}>
            <Button type="submit" variant="primary" isPending={saving}>
              Add Comment
            </Button>
          </div>
          {saveFailed && (
            <p className={styles.error} role="alert">
              The comment could not be saved. Please try again.
            </p>
          )}
        </form>
      )}
      {cards.readComments &&
        (loading ? (
          <p className={styles.muted}>Loading…</p>
        ) : failed ? (
          <p className={styles.error}>The comments could not be loaded.</p>
        ) : comments.length === 0 ? (
          <p className={styles.muted}>No comments</p>
        ) : (
          <ul className={styles.list} aria-label="Comments">
            {comments.map((comment) => (
              <li key={comment.CommentId} className={styles.comment}>
                <div className={styles.commentMeta}>
                  <strong>{comment.UserDisplayName}</strong>
                  <span className={styles.muted}>{formatDetailDate(comment.CommentTimestamp)}</span>
                </div>
                <p className={styles.commentText}>{comment.Comment}</p>
              </li>
            ))}
          </ul>
        ))}
    </>
  );
}
