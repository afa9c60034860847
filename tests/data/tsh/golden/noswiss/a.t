Player01, A 1990
Player02, A 1980
Player03, A 1970
Player04, A 1960
Player05, A 1950
Player06, A 1940
Player07, A 1930
Player08, A 1920
