import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of the sign-in screens. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-card">
      <p className="brand">Switchboard</p>
      <h1>{title}</h1>
      {children}
      {footer ? <div className="auth-foot">{footer}</div> : null}
    </div>
  );
}

export const SignInLink = () => <Link to="/login">Back to sign in</Link>;
