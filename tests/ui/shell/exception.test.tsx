import ForbiddenPage from '@/pages/403';
import NotFoundPage from '@/pages/404';
import { fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../helpers';

describe('403 and 404 pages', () => {
  it('403 says access is denied and leads home', () => {
    renderAt('/njit/overview', <ForbiddenPage />, '/njit/overview');
    expect(screen.getByText('403')).toBeInTheDocument();
    expect(screen.getByText('抱歉，你无权访问该页面。')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /返回首页/ }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/);
  });

  it('404 says the page does not exist and leads home', () => {
    renderAt('/no/such/page', <NotFoundPage />, '/no/such/page');
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByText('抱歉，你访问的页面不存在。')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /返回首页/ }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/);
  });
});
