import { Navigate } from 'react-router-dom';
import { homePath } from '../../domain/permissions.ts';
import { SessionContext } from '../../machines/session.machine.ts';

/** AM §2: `/` goes to My Apps or All Apps depending on the claims. */
export function HomeRedirect() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  return <Navigate to={homePath(claims)} replace />;
}
