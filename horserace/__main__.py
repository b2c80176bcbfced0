from horserace._start import main

main()
