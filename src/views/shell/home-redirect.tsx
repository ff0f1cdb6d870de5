import { Navigate } from 'react-router-dom';
import { landingPath } from '../../domain/navigation.ts';
import { SessionContext } from '../../machines/session.machine.ts';

/** AM §2: `/` goes to My Apps or All Apps depending on the claims; without either, to the first area the person may use (issue 39 point 9). */
export function HomeRedirect() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  return <Navigate to={landingPath(claims)} replace />;
}
