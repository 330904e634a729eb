package app.vigie.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;

/** Debian's Chromium driven by Playwright (no browser download), headless, with the flags this machine needs. */
public final class Chromium implements AutoCloseable {
    public static final Path SHOTS = Path.of("target", "screenshots");
    static final String EXECUTABLE = System.getProperty("vigie.chromium", "/usr/bin/chromium");

    private final Playwright playwright;
    private final Browser browser;

    private Chromium(Playwright playwright, Browser browser) {
        this.playwright = playwright;
        this.browser = browser;
    }

    public static Chromium launch() throws Exception {
        if (!Files.isExecutable(Path.of(EXECUTABLE))) {
            throw new AssertionError(EXECUTABLE + " is needed by this test; .ci/run installs it (apt-get install "
                    + "chromium)");
        }
        Files.createDirectories(SHOTS);
        Playwright playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(Path.of(EXECUTABLE)).setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run")));
        return new Chromium(playwright, browser);
    }

    public Browser browser() {
        return browser;
    }

    @Override
    public void close() {
        browser.close();
        playwright.close();
    }
}
