/** Adds a script tag once per URL (provider SDKs that only ship as a global script). */
const loading = new Map<string, Promise<void>>();

export const loadScript = (src: string, timeoutMs = 15_000): Promise<void> => {
  const existing = loading.get(src);
  if (existing) return existing;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    const timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    script.onload = () => {
      clearTimeout(timer);
      resolve();
    };
    script.onerror = () => {
      clearTimeout(timer);
      loading.delete(src);
      reject(new Error('script failed'));
    };
    document.head.appendChild(script);
  });
  loading.set(src, promise);
  return promise;
};
