"""``anchormem ui``: a local web page for one repository's store (adr/0023).

``app`` serves it (127.0.0.1 only, behind the printed link's token), ``access`` decides who
may use it, ``link`` reaches the store's service, ``pages`` gathers what each page shows,
``routes`` answers the requests, ``templates/`` renders them."""
