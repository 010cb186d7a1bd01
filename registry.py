"""The lab's pages, in teaching order: the one list the navigation, the home page, precompute, the tests and the
README follow. Plain Python (no Streamlit), so a script or a test can read it without starting the app.

Each page uses only what the pages before it introduced.
"""

from dataclasses import dataclass

__all__ = ["PAGES", "PageInfo", "TITLES", "by_script", "by_url_path", "next_page", "papers"]

KSU20 = "Kamath, Singhal & Ullman (2020)"  # Private Mean Estimation of Heavy-Tailed Distributions (docs/papers.md §1.1)
HKM22 = "Hopkins, Kamath & Majid (2022)"  # the Sum-of-Squares Exponential Mechanism (docs/papers.md §1.2)
GHAZI23 = "Ghazi et al. (2023)"  # User-Level Differential Privacy With Few Examples Per User (docs/papers.md §1.3)
SINGHAL23 = "Singhal (2023)"  # Pure DP Estimator for Binary Product Distributions (docs/papers.md §1.4)
JUO20 = "Jagielski, Ullman & Oprea (2020)"  # Auditing Differentially Private Machine Learning (docs/papers.md §2)
NASR21 = "Nasr et al. (2021)"  # Adversary Instantiation: Lower Bounds for Differentially Private ML (docs/papers.md §2)
ZZ25 = "Zampetakis & Zhou (2025)"  # Private Statistical Estimation via Truncation (docs/papers.md §1.5)
BW18 = "Balle & Wang (2018)"  # Improving the Gaussian Mechanism for Differential Privacy (docs/papers.md §2)
BS16 = "Bun & Steinke (2016)"  # Concentrated Differential Privacy (docs/papers.md §2)
DRS22 = "Dong, Roth & Su (2022)"  # Gaussian Differential Privacy (docs/papers.md §2)
SNJ23 = "Steinke, Nasr & Jagielski (2023)"  # Privacy Auditing with One (1) Training Run (docs/papers.md §2)
NASR23 = "Nasr et al. (2023)"  # Tight Auditing of Differentially Private Machine Learning (docs/papers.md §2)
KSL25 = "Keinan, Shenfeld & Ligett (2025)"  # How Well Can Differential Privacy Be Audited in One Run? (docs/papers.md)

#: Each paper a page draws on, by its citation in :attr:`PageInfo.papers`: its title (Markdown) and where it appeared.
#: The home page lists them all (:func:`papers`); docs/papers.md has the full references.
TITLES: dict[str, str] = {
    KSU20: "*Private Mean Estimation of Heavy-Tailed Distributions* (COLT 2020)",
    HKM22: "*Efficient Mean Estimation with Pure Differential Privacy via a Sum-of-Squares Exponential Mechanism* "
           "(STOC 2022)",
    GHAZI23: "*User-Level Differential Privacy With Few Examples Per User* (NeurIPS 2023)",
    SINGHAL23: "*A Polynomial Time, Pure Differentially Private Estimator for Binary Product Distributions*",
    JUO20: "*Auditing Differentially Private Machine Learning: How Private is Private SGD?* (NeurIPS 2020)",
    NASR21: "*Adversary Instantiation: Lower Bounds for Differentially Private Machine Learning* (IEEE Symposium on "
            "Security and Privacy 2021)",
    ZZ25: "*Private Statistical Estimation via Truncation*",
    BW18: "*Improving the Gaussian Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising* "
          "(ICML 2018)",
    BS16: "*Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds* (TCC 2016)",
    DRS22: "*Gaussian Differential Privacy* (JRSS B 2022)",
    SNJ23: "*Privacy Auditing with One (1) Training Run* (NeurIPS 2023)",
    NASR23: "*Tight Auditing of Differentially Private Machine Learning* (USENIX Security 2023)",
    KSL25: "*How Well Can Differential Privacy Be Audited in One Run?* (NeurIPS 2025)",
}


@dataclass(frozen=True)
class PageInfo:
    """One page of the lab.

    script: the page's script, relative to the repository root; title: its one name (sidebar, page title, home
    map, README); url_path: its address ("" for home, served at /); icon: a Streamlit material icon; summary:
    what it teaches, one line; papers: the papers it draws on (docs/papers.md), as "Authors (year)"; page_title: the
    heading on the page itself when it differs from the title (the home page is headed by the lab's name); objectives:
    what a student can do after the page, each completing "After this page you can …" (the course view on the home page
    and the top of the page show them); minutes: the time it takes in class; needs: what to know first.
    """

    script: str
    title: str
    url_path: str
    icon: str
    summary: str
    papers: tuple[str, ...] = ()
    page_title: str = ""
    objectives: tuple[str, ...] = ()
    minutes: int = 0
    needs: str = ""

    @property
    def heading(self) -> str:
        """The page's own heading: ``page_title``, else its title."""
        return self.page_title or self.title


PAGES: tuple[PageInfo, ...] = (
    PageInfo("app_pages/home.py", "Home", "", ":material/home:",
             "What ε promises, seen on the Laplace mechanism; the map of the lab", page_title="Private Estimation Lab"),
    PageInfo("app_pages/noise_tradeoff.py", "Pure vs approximate DP", "pure-vs-approximate", ":material/balance:",
             "What δ buys: Laplace (ε-DP) against Gaussian ((ε, δ)-DP) noise as the dimension and the number of "
             "releases grow", (KSU20, HKM22),
             objectives=("explain why Laplace noise costs d/ε, and Gaussian noise √d·σ, in the error of a "
                         "d-dimensional mean",
                         "read a privacy profile δ(ε) and say what accepting a small δ buys",
                         "compare pure and approximate DP when the same data are released k times"),
             minutes=25, needs="the home page: what ε and δ promise"),
    PageInfo("app_pages/exponential_mechanism.py", "Exponential mechanism", "exponential-mechanism",
             ":material/casino:",
             "Choosing privately with probability ∝ exp(ε·score / 2Δ): the election, the ln k price, the private "
             "median, user-level scores", (HKM22, GHAZI23),
             objectives=("compute the exponential mechanism's selection probabilities from scores, with its factor 2",
                         "explain why choosing among k candidates costs about ln(k)/ε in score",
                         "read the error of a private median as the sample grows"),
             minutes=25, needs="Pure vs approximate DP"),
    PageInfo("app_pages/truncation.py", "Truncation bias", "truncation-bias", ":material/content_cut:",
             "Clipping bounds the sensitivity but biases the mean, more so for heavy tails; removing the bias by "
             "truncated maximum likelihood", (KSU20, ZZ25),
             objectives=("explain how clipping bounds one person's influence, and why it biases the mean of a "
                         "skewed distribution",
                         "choose a clipping radius that balances bias against noise",
                         "describe how truncated maximum likelihood takes the bias back"),
             minutes=30, needs="Pure vs approximate DP; the exponential mechanism"),
    PageInfo("app_pages/tournament.py", "Tournament selection", "scheffe-tournament", ":material/emoji_events:",
             "Privately picking the best of k distributions by pairwise Scheffé contests; the cost grows like log k",
             (KSU20, GHAZI23),
             objectives=("run one Scheffé contest between two distributions and read its winner from the data",
                         "explain why a private tournament's cost grows only like log k",
                         "say how many users user-level privacy needs as each user's examples grow"),
             minutes=25, needs="the exponential mechanism"),
    PageInfo("app_pages/partition_rounds.py", "Partitioning rounds", "partitioning-rounds", ":material/view_column:",
             "Learning a binary product distribution with pure DP: partition the coordinates, add Laplace noise "
             "round by round, measure total variation", (SINGHAL23,),
             objectives=("say what releases on disjoint blocks of data cost in privacy together, and why",
                         "read total-variation error against n and d for pure and approximate DP learners"),
             minutes=25, needs="Pure vs approximate DP"),
    PageInfo("app_pages/audit_lab.py", "Privacy audit lab", "privacy-audit-lab", ":material/policy:",
             "Catch a mechanism breaking its promise from its outputs alone (a lower bound on ε), then play the "
             "attacker who guesses whether one person is in the data", (JUO20, NASR21),
             objectives=("turn a privacy claim into a statistical test that gives a lower bound on ε",
                         "say why passing an audit does not prove a mechanism private",
                         "relate a membership-inference attacker's success to ε"),
             minutes=20, needs="Pure vs approximate DP; the exponential mechanism"),
    PageInfo("app_pages/audit_studio.py", "Audit studio", "audit-studio", ":material/science:",
             "Auditing in one run with many canaries, Gaussian DP from error rates, the empirical trade-off curve "
             "in confidence boxes, and why the best threshold must be paid for",
             (SNJ23, KSL25, NASR23, DRS22),
             objectives=("bound ε from one run of a mechanism on many canaries, and say why canaries in one shared "
                         "release stay far from the claim",
                         "read a Gaussian-DP audit and the empirical trade-off curve, and say what the Gaussian "
                         "assumption adds",
                         "choose an audit's threshold so that its confidence still holds"),
             minutes=25, needs="Privacy audit lab"),
    PageInfo("app_pages/real_data.py", "Real data", "real-data", ":material/table_chart:",
             "The lab's releases on one real column (incomes, ages, doctor visits) or a column of your own CSV: "
             "clipping bounds, a private range, the private median, Laplace or Gaussian, each choice's price",
             (KSU20,), page_title="Real data: private estimates on one column",
             objectives=("choose public bounds for a real column and read the price of clipping against noise",
                         "compare the private mean, range-then-mean and median on heavy-tailed and bounded data",
                         "say which statistics of a column survive a small ε, and why"),
             minutes=30, needs="Truncation bias; the exponential mechanism"),
    PageInfo("app_pages/choosing_epsilon.py", "Choosing ε", "choosing-epsilon", ":material/tune:",
             "From the accuracy each release needs to the ε it costs: a plan of releases, its total by three "
             "accountings, a fixed budget shared among them, and what the total lets an attacker learn",
             (BW18, BS16, DRS22),
             objectives=("compute the smallest ε that puts a count or a mean within ±t of its value with "
                         "probability c",
                         "total a plan of releases by basic composition, zCDP and numerical composition, and share "
                         "a fixed budget among them",
                         "say what a total ε lets a membership attacker do, as a true-positive rate at a "
                         "false-positive rate"),
             minutes=25, needs="Real data; Pure vs approximate DP"),
)


def by_script(script: str) -> PageInfo:
    """The page whose script is ``script`` (relative to the repository root, e.g. "app_pages/truncation.py")."""
    return next(page for page in PAGES if page.script == script)


def by_url_path(url_path: str) -> PageInfo:
    """The page served at ``/url_path`` ("" or "/" for home); a leading slash is ignored."""
    return next(page for page in PAGES if page.url_path == url_path.lstrip("/"))


def papers() -> tuple[str, ...]:
    """Every paper the pages draw on (their :attr:`PageInfo.papers`), once each, in the order the course meets them.

    >>> papers()[:2], len(papers()) == len(TITLES)
    (('Kamath, Singhal & Ullman (2020)', 'Hopkins, Kamath & Majid (2022)'), True)
    """
    return tuple(dict.fromkeys(paper for page in PAGES for paper in page.papers))


def next_page(info: PageInfo) -> PageInfo:
    """The page after ``info`` in teaching order; after the last, the home page (the course's start)."""
    return PAGES[(PAGES.index(info) + 1) % len(PAGES)]
