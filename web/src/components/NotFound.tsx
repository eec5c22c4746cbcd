import { Link } from 'react-router';

export function NotFound() {
  return (
    <main className="public" id="main">
      <div className="auth-card">
        <h1>Page not found</h1>
        <p>There is no page at this address. Check the link, or go to your overview.</p>
        <p>
          <Link to="/">Go to Switchboard</Link>
        </p>
      </div>
    </main>
  );
}
