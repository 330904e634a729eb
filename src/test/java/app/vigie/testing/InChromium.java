package app.vigie.testing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import com.microsoft.playwright.Browser;

/** A test class that drives Chromium: one browser for the class, launched before its tests, closed after them. */
public abstract class InChromium {
    protected static Chromium chromium;
    protected static Browser browser;

    @BeforeAll
    static void launchChromium() throws Exception {
        chromium = Chromium.launch();
        browser = chromium.browser();
    }

    @AfterAll
    static void closeChromium() {
        if (chromium != null) {
            chromium.close();
            chromium = null;
        }
    }
}
