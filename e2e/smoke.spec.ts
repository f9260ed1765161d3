import { expect, test } from './support/test.ts';

test.describe('first screen', () => {
  test('loads with its heading, the welcome and no console errors', async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Orchestra Playground');
    await expect(page.getByRole('heading', { level: 1, name: 'Orchestra Playground' })).toBeVisible();
    const welcome = page.getByRole('region', { name: 'Watch a small model orchestrate bigger ones' });
    await expect(welcome).toContainText('Import config');
    await expect(page.getByRole('status', { name: 'WebGPU' })).not.toContainText('Checking');
    expect(consoleErrors).toEqual([]);
  });

  test('serves the search corpus generated at build time', async ({ request }) => {
    const corpus = await request.get('/generated/corpus.json');
    expect(corpus.ok()).toBe(true);
    const documents = (await corpus.json()) as Array<{ id: string; text: string }>;
    expect(documents.find((doc) => doc.id === 'country-fra')?.text).toContain('Paris');
    const notice = await request.get('/generated/DATA-NOTICE.txt');
    expect(await notice.text()).toContain('Open Database License');
  });

  test('says WebGPU has no adapter in plain headless Chromium', async ({ page }) => {
    await page.goto('/');
    const status = page.getByRole('status', { name: 'WebGPU' });
    await expect(status).toContainText('WebGPU is not available');
    await expect(status).toContainText('found no graphics adapter');
  });

  test('reports the real adapter when WebGPU is enabled', { tag: '@webgpu' }, async ({ page, consoleErrors }) => {
    await page.goto('/');
    const adapter = await page.evaluate(async () => {
      const found = await navigator.gpu.requestAdapter();
      if (!found) return null;
      const { vendor, architecture, isFallbackAdapter } = found.info;
      return { vendor, architecture, isFallbackAdapter, hasShaderF16: found.features.has('shader-f16') };
    });
    // Headless Chromium with --enable-unsafe-webgpu and no GPU gives SwiftShader on the CPU.
    expect(adapter).toEqual({ vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true, hasShaderF16: false });

    const status = page.getByRole('status', { name: 'WebGPU' });
    await expect(status).toContainText(`WebGPU adapter: ${adapter?.vendor}, ${adapter?.architecture}`);
    await expect(status).toContainText('This is a software adapter');
    await expect(status).toContainText('shader-f16 is not supported, so only q4f32 models can run.');
    expect(consoleErrors).toEqual([]);
  });
});
