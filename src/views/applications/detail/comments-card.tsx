import { formatDetailDate, type DetailCards } from '../../../domain/application-detail.ts';
import { commentMaxLength } from '../../../schemas/application-detail.schema.ts';
import { Button } from '../../ui/button.tsx';
import { TextArea } from '../../ui/text-area.tsx';
import { Card } from './detail-card.tsx';
import { useDetailSelector, useDetailSend } from './detail-hooks.ts';
import styles from './application-detail.module.css';

/** AM §2/§5 Comments: read with comments.view, add with comment.add (validated 300 ms after typing and on blur). */
export function CommentsCard({ cards }: { cards: DetailCards }) {
  const send = useDetailSend();
  const comments = useDetailSelector((snapshot) => snapshot.context.comments);
  const loading = useDetailSelector((snapshot) => snapshot.matches({ loaded: { comments: 'loading' } }));
  const failed = useDetailSelector((snapshot) => snapshot.context.commentsFailed);
  const draft = useDetailSelector((snapshot) => snapshot.context.commentDraft);
  const message = useDetailSelector((snapshot) => snapshot.context.commentMessage);
  const saving = useDetailSelector((snapshot) => snapshot.matches({ loaded: { comments: 'saving' } }));
  const saveFailed = useDetailSelector((snapshot) => snapshot.context.commentSaveFailed);
  return (
    <Card title="Comments">
      {cards.addComment && (
        <form
          className={styles.commentForm}
          onSubmit={(event) => {
            event.preventDefault();
            send({ type: 'comment.submit' });
          }}
        >
          <TextArea
            label="Add a comment"
            value={draft}
            onChange={(text) => send({ type: 'comment.change', text })}
            onBlur={() => send({ type: 'comment.blur' })}
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
    </Card>
  );
}
