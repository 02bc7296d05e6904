import { useEffect } from 'react';

/** The browser tab names the screen, then the app: "Users | Acme Funnels". */
export const usePageTitle = (title: string, appName?: string): void => {
  useEffect(() => {
    document.title = appName ? `${title} | ${appName}` : title;
  }, [title, appName]);
};
