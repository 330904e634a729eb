package app.vigie.runtime.kv;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import app.vigie.runtime.log.PageRun;

/**
 * One paged KV pool of the toy model. A slot's KV is the token it holds, and the slot also remembers which request
 * wrote it: the ground truth of who reads whose content, kept apart from the audit log. Pages are handed out from a
 * free list that gives the most recently freed pages first, as SGLang's allocator does, so that a freed page is the
 * next one reused, content and all. Each page carries owner tags (tenant, request, generation) and the request whose
 * content it holds.
 */
public final class KvPool {
    /** Neither written nor owned. */
    public static final int NONE = -1;

    private final int pageSize;
    private final int pages;
    private final int[] token;
    private final int[] writer;
    private final int[] free;
    private int freeCount;
    private final int[] owner;
    private final int[] tenant;
    private final int[] generation;
    private final int[] contentOf;
    private final int[] filled;

    private final boolean tagged;
    private long allocations;

    public KvPool(int pageSize, int pages) {
        this(pageSize, pages, true);
    }

    /** @param tagged whether pages carry tags; off only to measure what they cost (the tag check then fails) */
    public KvPool(int pageSize, int pages, boolean tagged) {
        this.tagged = tagged;
        if (pageSize < 1 || pages < 1) {
            throw new IllegalArgumentException("a pool needs pages of at least one slot: " + pageSize + " x " + pages);
        }
        this.pageSize = pageSize;
        this.pages = pages;
        this.token = new int[Math.multiplyExact(pageSize, pages)];
        this.writer = new int[token.length];
        Arrays.fill(token, NONE);
        Arrays.fill(writer, NONE);
        this.free = new int[pages];
        for (int i = 0; i < pages; i++) {
            free[i] = pages - 1 - i;
        }
        this.freeCount = pages;
        this.owner = new int[pages];
        Arrays.fill(owner, NONE);
        this.tenant = new int[pages];
        Arrays.fill(tenant, NONE);
        this.generation = new int[pages];
        this.contentOf = new int[pages];
        Arrays.fill(contentOf, NONE);
        this.filled = new int[pages];
    }

    public int pageSize() {
        return pageSize;
    }

    public int pages() {
        return pages;
    }

    public int freePages() {
        return freeCount;
    }

    /** Pages handed out since the pool was made. */
    public long allocations() {
        return allocations;
    }

    /** {@code n} pages for {@code request}, most recently freed first, or null when fewer are free. */
    public int[] allocate(int n, int request) {
        return allocate(n, request, NONE);
    }

    /** The same, the pages tagged with the request's tenant (a number the engine gives each tenant). */
    public int[] allocate(int n, int request, int tenantTag) {
        if (n > freeCount) {
            return null;
        }
        int[] out = new int[n];
        allocations += n;
        for (int i = 0; i < n; i++) {
            int page = free[--freeCount];
            owner[page] = request;
            if (tagged) {
                tenant[page] = tenantTag;
                generation[page]++;
                contentOf[page] = NONE;
                filled[page] = 0;
            }
            out[i] = page;
        }
        return out;
    }

    /** Gives a page back; its content stays. */
    public void free(int page) {
        release(page);
        recycle(page);
    }

    /** The owner gives the page up, but it does not go back to the free list: a prefix cache holds it. */
    public void release(int page) {
        if (owner[page] == NONE) {
            throw new IllegalStateException("page " + page + " is not allocated");
        }
        owner[page] = NONE;
    }

    /** A page nobody owns goes back to the free list (a prefix cache evicting it). */
    public void recycle(int page) {
        if (owner[page] != NONE) {
            throw new IllegalStateException("page " + page + " is owned by request " + owner[page]);
        }
        free[freeCount++] = page;
    }

    public void write(int page, int slot, int value, int request) {
        write(page, slot, value, request, request);
    }

    /**
     * Writes a token on behalf of {@code request} (the page's tag) that {@code origin} produced (the ground truth):
     * they differ when a transfer carries another request's KV.
     */
    public void write(int page, int slot, int value, int request, int origin) {
        int i = page * pageSize + slot;
        token[i] = value;
        writer[i] = origin;
        if (!tagged) {
            return;
        }
        if (contentOf[page] != request) {
            contentOf[page] = request;
            filled[page] = 0;
        }
        filled[page] = Math.max(filled[page], slot + 1);
    }

    public int token(int page, int slot) {
        return token[page * pageSize + slot];
    }

    /** The tokens a page holds, copied. */
    public int[] tokens(int page) {
        return Arrays.copyOfRange(token, page * pageSize, (page + 1) * pageSize);
    }

    /** The request whose token the slot holds (who produced it), or {@link #NONE}. */
    public int writer(int page, int slot) {
        return writer[page * pageSize + slot];
    }

    /** The request that owns the page, or {@link #NONE}. */
    public int owner(int page) {
        return owner[page];
    }

    /**
     * The tenant of the page's last owner, or {@link #NONE}: kept when the owner gives the page up to a prefix cache,
     * since the content is still that tenant's.
     */
    public int tenant(int page) {
        return tenant[page];
    }

    /** How many times the page was allocated. */
    public int generation(int page) {
        return generation[page];
    }

    /** The request that last wrote into the page, or {@link #NONE}: the tag a read is checked against. */
    public int contentOf(int page) {
        return contentOf[page];
    }

    /**
     * The per-page tag check of a read (a fix announced after the incident): the page's content tag is the reader's
     * own, set since its allocation, and covers the first {@code slots} slots. A page reused without being
     * written, or only partly written, fails.
     */
    public boolean tagAllows(int page, int reader, int slots) {
        return tagged && owner[page] == reader && contentOf[page] == reader && filled[page] >= slots;
    }

    /** Pages as runs of consecutive numbers, in the given order. */
    public static List<PageRun> runs(int[] pageList, int from, int to) {
        List<PageRun> runs = new ArrayList<>();
        int i = from;
        while (i < to) {
            int j = i + 1;
            while (j < to && pageList[j] == pageList[j - 1] + 1) {
                j++;
            }
            runs.add(new PageRun(pageList[i], j - i));
            i = j;
        }
        return runs;
    }
}
